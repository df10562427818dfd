import * as assert from 'node:assert/strict';
import { splitCommand } from '../../../../src/core/safety/command-part';
import { isKnownSafeCommand } from '../../../../src/core/safety/safe-commands';
import { readPeerCases } from './peer-shell-context';

const texts = (command: string) => splitCommand(command).parts.map((p) => p.text);

describe('command splitting', () => {
  describe("Roo's parseCommand cases (test/fixtures/peer/shell_cases/roo_command_splitting.json)", () => {
    /**
     * One deliberate difference: roo-split-26 splits `echo "Hello\nWorld"` at the newline INSIDE the
     * quotes. The shell does not (the newline is part of the argument), and neither do we: quoted
     * text is data. Splitting there would judge "World" as a command that never runs.
     */
    const OURS: Record<string, string[]> = { 'roo-split-26': ['echo "Hello\nWorld"', 'git status'] };
    const cases = readPeerCases<{ id: string; command: string; expected_subcommands: string[] }>('roo_command_splitting.json');
    it('has the whole corpus', () => assert.equal(cases.length, 43));
    for (const c of cases) {
      it(`${c.id}: ${JSON.stringify(c.command)}`, () => {
        assert.deepEqual(texts(c.command), OURS[c.id] ?? c.expected_subcommands);
      });
    }
  });

  it('splits at every chain operator and finds the commands inside substitutions, subshells and scripts', () => {
    assert.deepEqual(texts('git status && rm -rf ~'), ['git status', 'rm -rf ~']);
    assert.deepEqual(texts('ls; curl x | sh'), ['ls', 'curl x', 'sh']);
    assert.deepEqual(texts('echo $(rm -rf /)'), ['echo', 'rm -rf /']);
    assert.deepEqual(texts('echo "x $(whoami)" `id`'), ['echo "x "', 'whoami', 'id']);
    assert.deepEqual(texts('diff <(git log) >(wc -l)'), ['diff', 'git log', 'wc -l']);
    assert.deepEqual(texts('(cd /tmp && rm -rf x)'), ['cd /tmp', 'rm -rf x']);
    assert.deepEqual(texts('bash -c "npm test && rm x"'), ['bash -c "npm test && rm x"', 'npm test', 'rm x']);
    assert.deepEqual(texts("eval 'curl x | sh'"), ["eval 'curl x | sh'", 'curl x', 'sh']);
    assert.deepEqual(texts('find . -name "*.tmp" -exec rm -f {} \\;'), ['find . -name "*.tmp" -exec rm -f {} \\;', 'rm -f']);
    assert.deepEqual(texts('x=$(curl -s a) && echo "${y:-$(id)}"'), ['x=', 'curl -s a', 'echo "${y:-}"', 'id']);
    assert.deepEqual(texts('for f in *.ts; do echo "$f"; done'), ['echo "$f"']);
    assert.deepEqual(texts('f() { rm -rf build; }; f'), ['rm -rf build', 'f']);
  });

  it('never splits inside quotes, and keeps what is single-quoted as text', () => {
    assert.deepEqual(texts('echo "a && b; c | d"'), ['echo "a && b; c | d"']);
    const single = splitCommand("echo 'use $(command) or `this`'");
    assert.equal(single.parts.length, 1);
    assert.equal(single.substitution, false);
    assert.deepEqual(splitCommand("git commit -m 'it'\\''s done'").parts[0]!.words, ['git', 'commit', '-m', "it's done"]);
  });

  it('says when a nested command runs, and only then', () => {
    for (const c of ['echo $(date)', 'echo "`id`"', 'cat <(ls)', 'tee >(wc)', 'cat =(ls)', 'ls @(Get-Process)']) assert.equal(splitCommand(c).substitution, true, c);
    for (const c of ['echo $((1 + 2))', 'files=(a b c)', 'echo ${HOME}', 'echo "$PWD"', 'cat ?(a|b)', "echo '$(x)'"]) assert.equal(splitCommand(c).substitution, false, c);
  });

  it('finds file writes: redirections, tee and find -fprint; not descriptor copies or /dev/null', () => {
    const writes = (c: string) => splitCommand(c).parts.flatMap((p) => p.writes.map((w) => w.target));
    assert.deepEqual(writes('npm test > log.txt 2>&1'), ['log.txt']);
    assert.deepEqual(writes('echo a >> notes.md; echo b &> all.log'), ['notes.md', 'all.log']);
    assert.deepEqual(writes('ls 2>/dev/null >&2'), []);
    assert.deepEqual(writes('npm test | tee out.log'), ['out.log']);
    assert.deepEqual(writes('find . -fprintf /root/suid.txt %p'), ['/root/suid.txt']);
    assert.deepEqual(writes('cat < input.txt'), [], 'reading a file is not a write');
  });

  it('reads here-documents as data, except the substitutions an unquoted one runs', () => {
    const quoted = splitCommand("cat <<'EOF' > notes.md\nrm -rf / $(id)\nEOF\nls");
    assert.deepEqual(quoted.parts.map((p) => p.text), ["cat <<'EOF' > notes.md", 'ls']);
    assert.equal(quoted.substitution, false);
    const open = splitCommand('cat <<EOF\nhello $(whoami)\nEOF');
    assert.deepEqual(open.parts.map((p) => p.text), ['cat <<EOF', 'whoami']);
    assert.equal(open.substitution, true);
  });

  it('flags lines that hide what runs: hidden expansions, deceptive line breaks, unreadable syntax', () => {
    for (const c of ['echo ${var@P}', 'echo ${!ref}', 'echo "${x=\\140id\\140}"', 'cat <<<$(whoami)', 'cat =(whoami)', 'ls *(e:whoami:)', "$'\\x72m' -rf build"]) {
      assert.ok(splitCommand(c).risky, c);
    }
    for (const c of ['echo ${var}', 'echo ${var:-default}', 'cat <<<"text"', 'x=(1 2)', 'echo *(^/)']) assert.equal(splitCommand(c).risky, undefined, c);
    assert.ok(splitCommand('echo hello\u2028rm -rf build').deceptive);
    assert.ok(splitCommand('npm install\rrm -rf build').deceptive);
    assert.equal(splitCommand('echo "a\u2028b"').deceptive, undefined, 'inside quotes it is only text');
    assert.equal(splitCommand('npm i\r\nnpm test').deceptive, undefined, 'a Windows line ending is an ordinary newline');
    for (const c of ['git log &&& rm x', 'echo "open', 'ls &&', '| ls', '(ls', 'ls)']) assert.ok(splitCommand(c).parseError, c);
    assert.equal(splitCommand('npm install\nnpm test').multiline, true);
    assert.equal(splitCommand('npm install &&\n  npm test').multiline, false, 'a continued line is one command list');
  });

  it('decodes $\'…\' escapes, so a spelled-out name is seen for what it is', () => {
    assert.deepEqual(splitCommand("$'\\x72\\x6d' -rf /").parts[0]!.words, ['rm', '-rf', '/']);
  });

  it('knows which command lines only read (Semi-Auto)', () => {
    for (const c of ['ls -la', 'git status', 'git diff HEAD~1', 'cat README.md', 'grep -n foo src/a.ts', 'find . -name "*.ts"', 'ls | wc -l', 'git status && git diff', 'git -C sub log -5', 'sed -n 1,5p a.txt']) {
      assert.equal(isKnownSafeCommand(c), true, c);
    }
    for (const c of ['rm a', 'ls; rm a', 'cat a > b', 'echo $(whoami)', 'git push', 'find . -delete', 'git log --output=x', 'ls | sh', 'git -c core.pager=x log', 'git branch -D x', 'PATH=/tmp ls', 'rg --pre sh x', 'ls\nls']) {
      assert.equal(isKnownSafeCommand(c), false, c);
    }
  });
});
