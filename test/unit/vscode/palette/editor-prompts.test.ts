import * as assert from 'node:assert/strict';
import { explainSelectionPrompt, explainTerminalPrompt, fenced, fixDiagnosticsPrompt, fixProblemsPrompt, MAX_PROBLEMS, selectionReference, type ProblemInfo } from '../../../../src/vscode/palette/editor-prompts';

const selection = { path: 'src/math.ts', startLine: 3, endLine: 5, languageId: 'typescript', text: 'export function add(a: number, b: number): number {\n  return a + b;\n}' };

describe('palette prompts', () => {
  it('Explain Selection names the file and the lines and carries the code in a fence', () => {
    const prompt = explainSelectionPrompt(selection);
    assert.match(prompt, /^Explain this code from `src\/math\.ts` \(lines 3-5\)/);
    assert.ok(prompt.includes('```typescript\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n```'), prompt);
    assert.doesNotMatch(prompt, /\$\{/, 'every variable is filled in');
  });

  it('a one-line selection says "line N"', () => {
    assert.match(selectionReference({ ...selection, startLine: 1, endLine: 1, text: 'export const PI = 3.14159;' }), /^`src\/math\.ts` line 1:\n```typescript\nexport const PI/);
  });

  it('a fence is longer than any backtick run in the code, so the block cannot end early', () => {
    assert.equal(fenced('a ``` b', 'md'), '````md\na ``` b\n````');
    assert.equal(fenced('plain\n', ''), '```\nplain\n```', 'a trailing newline does not leave an empty line');
  });

  it('Fix Problems lists errors before warnings, each with its position, source and message on one line', () => {
    const problems: ProblemInfo[] = [
      { line: 9, column: 3, severity: 'warning', message: "'x' is declared but its value is never read.", source: 'ts', code: 6133 },
      { line: 4, column: 7, severity: 'error', message: "Type 'string' is not assignable to type 'number'.", source: 'ts', code: 2322 },
      { line: 2, column: 1, severity: 'error', message: 'Argument of type\n  string is not assignable.' },
    ];
    const prompt = fixProblemsPrompt('broken.ts', problems);
    assert.match(prompt, /^Fix the problems VS Code reports in `broken\.ts`:/);
    const lines = prompt.split('\n').filter((l) => l.startsWith('- '));
    assert.deepEqual(lines, [
      '- line 2, column 1: error: Argument of type string is not assignable.',
      "- line 4, column 7: error (ts 2322): Type 'string' is not assignable to type 'number'.",
      "- line 9, column 3: warning (ts 6133): 'x' is declared but its value is never read.",
    ]);
  });

  it('Fix Problems caps a long list and says how many more there are', () => {
    const many: ProblemInfo[] = Array.from({ length: MAX_PROBLEMS + 7 }, (_, i) => ({ line: i + 1, column: 1, severity: 'error', message: `problem ${i + 1}` }));
    const prompt = fixProblemsPrompt('big.ts', many);
    assert.equal(prompt.split('\n').filter((l) => / problem \d+$/.test(l)).length, MAX_PROBLEMS);
    assert.match(prompt, /- … and 7 more/);
  });

  it('Fix with OpenDev names the file and lines, lists the diagnostics and carries the code there', () => {
    const problems: ProblemInfo[] = [{ line: 4, column: 10, severity: 'error', message: "Type 'string' is not assignable\n  to type 'number'.", source: 'ts', code: 2322 }];
    const prompt = fixDiagnosticsPrompt({ ...selection, startLine: 4, endLine: 4, text: '  return "a" + b;' }, problems);
    assert.match(prompt, /^Fix the problems VS Code reports in `src\/math\.ts` \(line 4\):\n- line 4, column 10: error \(ts 2322\): Type 'string' is not assignable to type 'number'\.\n/);
    assert.ok(prompt.includes('```typescript\n  return "a" + b;\n```'), prompt);
    assert.doesNotMatch(prompt, /\$\{/, 'every variable is filled in');
  });

  it('Explain with OpenDev carries the terminal text in a fence the output cannot close', () => {
    const prompt = explainTerminalPrompt('$ npm test\n```\nError: 1 failing');
    assert.match(prompt, /^Explain this output from my terminal/);
    assert.ok(prompt.includes('````text\n$ npm test\n```\nError: 1 failing\n````'), prompt);
  });
});
