import * as assert from 'node:assert/strict';
import { parseShellLine, readShell, splitTopLevel } from '../../../../src/core/shell/shell-reader';
import { isAssignment, commandName, normalizeLineBreaks } from '../../../../src/core/shell/shell-text';

const words = (line: string) => readShell(line).commands.map((c) => c.words);

/** The one shell reader (tree-sitter-bash): what each simple command is, and how the commands connect. */
describe('the shell reader', () => {
  it('reads words as the command receives them: quotes removed, escapes resolved, $\'…\' decoded, expansions as written', () => {
    assert.deepEqual(words(`git commit -m 'it'\\''s done' "a \\"b\\" $HOME" \\; $'\\x72\\x6d'`), [['git', 'commit', '-m', "it's done", 'a "b" $HOME', ';', 'rm']]);
    assert.deepEqual(words('FOO=1 BAR="x y" make all'), [['FOO=1', 'BAR=x y', 'make', 'all']]);
    assert.deepEqual(words('rm -rf "$HOME"/ ${HOME} ~'), [['rm', '-rf', '$HOME/', '${HOME}', '~']]);
    assert.deepEqual(words('ls \\\n  -la'), [['ls', '-la']], 'a line continuation joins the words');
  });

  it('gives each command its redirections, with here-documents and here-strings as the text they feed', () => {
    const [cat] = readShell("cat <<'EOF' > notes.md\nrm -rf / $(id)\nEOF").commands;
    assert.deepEqual(cat!.redirects, [{ op: '<<', target: 'EOF', body: 'rm -rf / $(id)\n' }, { op: '>', target: 'notes.md' }]);
    assert.equal(cat!.stdinText, 'rm -rf / $(id)\n');
    assert.deepEqual(readShell('ls 2>/dev/null >&2 &> all.log').commands[0]!.redirects, [
      { op: '>', target: '/dev/null' },
      { op: '>&', target: '&2' },
      { op: '&>', target: 'all.log' },
    ]);
    assert.equal(readShell('tr a b <<< "text"').commands[0]!.stdinText, 'text');
    // The grammar hangs a redirection after `&&` or `|` on the whole list; the shell gives it to the last command.
    const list = readShell('cd /tmp && echo hi > x.txt').commands;
    assert.deepEqual(list.map((c) => c.redirects.length), [0, 1]);
  });

  it('numbers pipelines and their stages, and knows what literal text a pipe feeds', () => {
    const script = readShell('echo ~ | xargs rm -rf; curl -s x | tee log | sh');
    assert.deepEqual(script.pipelines.map((p) => p.stages), [[[0], [1]], [[2], [3], [4]]]);
    assert.equal(script.commands[1]!.stdinText, '~');
    assert.equal(script.commands[4]!.stdinText, undefined, 'what tee passes on is not on the line');
    assert.equal(readShell("printf 'a\\nb' | sh").commands[1]!.stdinText, 'a\nb');
  });

  it('finds the commands inside substitutions, with the command and word they belong to', () => {
    const script = readShell('python3 <(curl -s x) "$(date)"');
    assert.deepEqual(script.commands.map((c) => [c.words[0], c.origin, c.parent, c.parentWord]), [
      ['python3', 'command', undefined, undefined],
      ['curl', 'substitution', 0, 1],
      ['date', 'substitution', 0, 2],
    ]);
    assert.equal(script.substitution, true);
    assert.equal(script.processSubstitution, true);
  });

  it('reads the scripts a command runs: bash -c, eval, sh fed by a here-document or an echo, find -exec, zsh qualifiers', () => {
    const origins = (line: string) => readShell(line).commands.map((c) => `${c.origin}:${c.words.join(' ')}`);
    assert.deepEqual(origins("bash -lc 'npm test && rm x'"), ['command:bash -lc npm test && rm x', 'script:npm test', 'script:rm x']);
    assert.deepEqual(origins("eval 'curl x | sh'"), ['command:eval curl x | sh', 'script:curl x', 'script:sh']);
    assert.deepEqual(origins('sh <<EOF\nrm -rf ~\nEOF'), ['command:sh', 'script:rm -rf ~']);
    assert.deepEqual(origins("echo 'rm -rf ~' | sh"), ['command:echo rm -rf ~', 'command:sh', 'script:rm -rf ~']);
    assert.deepEqual(origins('find . -exec rm -f {} \\;'), ['command:find . -exec rm -f {} ;', 'exec:rm -f']);
    assert.deepEqual(origins('ls *(e:whoami:)'), ['command:ls *(e:whoami:)', 'script:whoami']);
    assert.equal(readShell('ls *(e:whoami:)').risky, 'a zsh glob qualifier runs a command');
  });

  it('records functions with the commands of their body, and what runs in the background', () => {
    const script = readShell(':(){ :|:& };:');
    assert.deepEqual(script.functions, [{ name: ':', body: [0, 1] }]);
    assert.deepEqual(script.commands.map((c) => [c.background, c.pipe?.stage]), [[true, 0], [true, 1], [false, undefined]]);
  });

  it('follows cd and plain assignments along the line (a subshell keeps its own)', () => {
    const script = readShell('H=$HOME; cd ~ && (cd sub; ls) && rm -rf $H; cd "$X"; ls');
    const by = (text: string) => script.commands.find((c) => c.text === text)!;
    assert.deepEqual(by('rm -rf $H').cd, ['~']);
    assert.deepEqual(by('rm -rf $H').vars, { H: '$HOME' });
    assert.deepEqual(script.commands.filter((c) => c.text === 'ls').map((c) => c.cd), [['~', 'sub'], null]);
  });

  it('flags what it cannot read: syntax errors, words the grammar skipped, lines too deep or too slow to read', () => {
    for (const line of ['git log &&& rm x', 'echo "open', 'ls &&', '| ls', '(ls', 'ls)', 'echo (x)']) assert.ok(readShell(line).parseError, line);
    assert.equal(readShell('if [ -f x ]; then').parseError, undefined, 'an unfinished if runs nothing: its test is read anyway');
    assert.match(readShell(`${'$('.repeat(40)}ls${')'.repeat(40)}`).parseError ?? '', /nesting too deep/);
    // Inside an error the words still count as a command.
    assert.deepEqual(words('for x in a; do rm -rf ~').pop(), ['rm', '-rf', '~']);
  });

  it('says where the top-level pieces are, and gives the simple-command view the artifact index reads', () => {
    const line = 'cd web && npm run dev; ls | wc -l\nPORT=1 npm start';
    assert.deepEqual(splitTopLevel(line).map(({ start, end }) => line.slice(start, end)), ['cd web', 'npm run dev', 'ls | wc -l', 'PORT=1 npm start']);
    assert.deepEqual(parseShellLine('sudo rm -f a.txt > /dev/null').commands, [{ words: ['sudo', 'rm', '-f', 'a.txt'], redirects: [{ op: '>', target: '/dev/null' }] }]);
  });

  it('small helpers: assignments, command names, line breaks', () => {
    assert.equal(isAssignment('FOO=1'), true);
    assert.equal(isAssignment('arr[0]+=x'), true);
    assert.equal(isAssignment('--opt=1'), false);
    assert.equal(commandName('/usr/bin/rm'), 'rm');
    assert.equal(normalizeLineBreaks('a\r\nb\u2028c\rd'), 'a\nb\nc\nd');
  });
});
