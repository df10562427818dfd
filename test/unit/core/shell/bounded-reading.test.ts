import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkDanger } from '../../../../src/core/process/danger-gate';
import { judgeCommand } from '../../../../src/core/safety/command-judge';
import { DEFAULT_CAUTION_RULES } from '../../../../src/core/safety/default-rules';
import { compareRules } from '../../../../src/core/safety/permission-rule';
import { MAX_COMMAND_CHARS } from '../../../../src/core/shell/command-limits';
import { runCommandTool } from '../../../../src/core/tools/run-command';
import { ToolError } from '../../../../src/core/tools/tool';
import { toolContext } from '../../../helpers/tool-context';

/**
 * Judging a command is bounded: past 100 KB it is refused at once, and below that no input takes
 * much longer than an ordinary script of its size (tree-sitter's error recovery is super-linear on
 * some inputs, so a parse that overruns its budget is stopped and the line asks as unreadable).
 * Times are compared within the test, never to a fixed figure: a busy machine slows both alike.
 */
describe('reading a command is bounded', function () {
  // One generous limit: a busy machine makes every read slow, the ordinary ones too.
  this.timeout(300_000);
  let workspace: string;
  before(() => {
    workspace = mkdtempSync(join(tmpdir(), 'opendev-bounded-'));
    warm(); // starts the parser process once, outside any measurement
  });
  after(() => rmSync(workspace, { recursive: true, force: true }));

  const judge = (command: string) =>
    judgeCommand(command, { rules: [...DEFAULT_CAUTION_RULES].sort(compareRules), level: 'auto', workspaceRoot: workspace ?? tmpdir(), home: '/home/dev' });
  /** A short command never judged before: the parser process is running after it (a parse stopped for its budget took the last one with it). */
  let warmed = 0;
  const warm = () => judge(`git status --short ${++warmed}`);
  /** Trailing blanks that make a text new to the parse cache. */
  let reads = 0;
  const fresh = () => ' '.repeat(++reads);
  /** Milliseconds to judge `command`, the parser process started beforehand. */
  const timed = (command: string) => {
    warm();
    const started = performance.now();
    const verdict = judge(command);
    return { ms: performance.now() - started, verdict };
  };

  it('refuses a 10 MB command at once, with what to do instead; run_command refuses it too', async () => {
    const command = `echo ${'x'.repeat(10_000_000)}`;
    // Not read at all: quicker than judging a short command (which the parser reads), the best of three each.
    let ms = Infinity;
    let short = Infinity;
    for (let attempt = 0; attempt < 3; attempt++) {
      ms = Math.min(ms, timed(command).ms);
      short = Math.min(short, timed(`npm test -- --grep "case ${attempt}" 2>&1 | tail -5`).ms);
    }
    const verdict = judge(command);
    assert.equal(verdict.action, 'deny');
    assert.equal(verdict.rule?.id, 'danger:command-too-long');
    assert.equal(verdict.reason, 'the command is 10 MB; the limit is 100 KB: write the script to a file in the workspace and run that');
    assert.ok(ms < short, `10 MB refused in ${ms.toFixed(2)} ms, a short command judged in ${short.toFixed(2)} ms`);
    assert.equal(checkDanger(`ls ${'a'.repeat(MAX_COMMAND_CHARS)}`).rule, 'command-too-long');
    await assert.rejects(runCommandTool.run({ command }, toolContext({ workspaceRoot: workspace })), (err: unknown) => err instanceof ToolError && err.kind === 'permission' && /limit is 100 KB: write the script to a file/.test(err.message));
  });

  /** `unit` repeated to about `n` characters. */
  const times = (unit: string, n: number) => unit.repeat(Math.max(1, Math.floor(n / unit.length)));
  /** Inputs that make tree-sitter's error recovery crawl, or that are merely big, of about `n` characters. */
  const pathological: Array<[string, (n: number) => string]> = [
    ['$( nesting', (n) => times('$(', n)],
    ['((((', (n) => times('(', n)],
    ['unbalanced quotes', (n) => times(`"'\``, n)],
    ['an unclosed double quote', (n) => `echo "${times('a', n)}`],
    ['pipes', (n) => `${times('a|', n)}a`],
    ['a pipeline ending in a pipe', (n) => times('ls | ', n)],
    ['deeply nested subshells', (n) => `${times('(', n / 4)}ls${times(')', n / 4)}`],
    ['deeply nested braces', (n) => `${times('{ ', n / 2)}ls; ${times('} ', n / 2)}`],
    ['deeply nested substitutions', (n) => `${times('$(', n / 2)}ls${times(')', n / 4)}`],
    ['a long here-document', (n) => `cat <<EOF > out.py\n${times('print("line $x `y` $(z)")\n', n)}EOF\n`],
    ['many commands', (n) => times('echo a; ', n)],
    [')))))', (n) => times(')', n)],
    ['error recovery bait', (n) => times('=`>', n)],
    ['<<<<', (n) => times('<<', n)],
    ['nested bash -c', (n) => `${times('bash -c "', n)}ls`],
    ['nested defaults', (n) => times('${a:-', n)],
    ['one command of many words', (n) => times('rm -rf ~/x ', n)],
  ];
  const N = 90_000;
  /** A line a user might well run, repeated to about `n` characters: what judging an ordinary script of that size costs. */
  const ordinary = (n: number) => times('x=$(( $(wc -l < "$f") + ${n:-0} )); [ "$x" -gt 0 ] && echo "$f: $x" || echo "$f: empty"\n', n);
  /**
   * Some of the inputs make twice the syntax nodes an ordinary script of their size does (every node
   * is sent back and walked), so they may take several times as long; a parse that crawled would take
   * dozens of times as long (32 KB of `)` alone took 7 s to parse before parses had a budget).
   */
  const RATIO = 10;
  const measured: string[] = [];
  after(() => console.log(['', '    | input | size | judged in | an ordinary script of its size | ratio | verdict |', '    |---|---|---|---|---|---|', ...measured, ''].join('\n')));
  for (const [name, make] of pathological) {
    const command = make(N);
    const script = ordinary(command.length);
    it(`judges ${name} (${(command.length / 1000).toFixed(0)} KB) in at most ${RATIO}× the time of an ordinary script of its size`, () => {
      // Read again (a new text each time, so none comes from the parse cache) while over the ratio, up
      // to five times, the best of each counting: another job on the machine can slow one read down,
      // but it cannot make a crawling read fast.
      let ms = Infinity;
      let baseline = Infinity;
      let verdict: ReturnType<typeof judge> | undefined;
      for (let attempt = 0; attempt < 5 && (attempt === 0 || ms > RATIO * baseline); attempt++) {
        baseline = Math.min(baseline, timed(`${script}${fresh()}`).ms);
        const read = timed(`${command}${fresh()}`);
        ms = Math.min(ms, read.ms);
        verdict = read.verdict;
      }
      const ratio = ms / baseline;
      measured.push(`    | ${name} | ${(command.length / 1000).toFixed(0)} KB | ${ms.toFixed(0)} ms | ${baseline.toFixed(0)} ms | ${ratio.toFixed(2)} | ${verdict!.action} (${verdict!.rule?.id ?? verdict!.decidedBy}) |`);
      assert.ok(ratio <= RATIO, `${ms.toFixed(0)} ms against ${baseline.toFixed(0)} ms for an ordinary script of its size`);
    });
  }
});
