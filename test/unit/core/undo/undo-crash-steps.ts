// The scripted steps of the undo crash test (undo-crash.test.ts runs undo-crash-child.ts, which runs
// them): the calls of each kind of step, the workspace they start from, and the moments of a step
// the child reports, in order, so the parent can kill it at any one of them.
import type { ToolCall } from '../../../../src/core/messages';

export type StepKind = 'create' | 'edit' | 'command' | 'multi';

/** What the child runs: its steps in order; it pauses at every moment of the last one. */
export interface CrashPlan {
  trial: number;
  steps: StepKind[];
}

/** The big file the edits change (~370 KB: its write and flush take a moment). */
const BIG_LINES = 4_000;
const bigLine = (i: number) => `${String(i).padStart(6, '0')} ${'the quick brown fox jumps over the lazy dog '.repeat(2)}`;

/** The workspace every trial starts from (and /undo must bring back, byte for byte). */
export function initialFiles(): Record<string, string> {
  return {
    'src/app.ts': 'export const app = 1;\n',
    'docs/guide.md': '# Guide\n\nRead me.\n',
    'data/big.txt': Array.from({ length: BIG_LINES }, (_, i) => bigLine(i)).join('\n') + '\n',
  };
}

/** The tool calls of a step (`index` numbers the child's steps, so two steps never name one file). */
export function stepCalls(kind: StepKind, trial: number, index: number): ToolCall[] {
  const id = (k: number) => `t${trial}s${index}c${k}`;
  const call = (k: number, name: string, args: Record<string, unknown>): ToolCall => ({ id: id(k), name, arguments: JSON.stringify(args) });
  const lastLine = bigLine(BIG_LINES - 1);
  switch (kind) {
    case 'create':
      return [call(0, 'write_file', { file_path: `notes/${trial}-${index}/todo.md`, content: `# To do (trial ${trial})\n`, create_dirs: true })];
    case 'edit':
      return [call(0, 'read_file', { file_path: 'data/big.txt' }), call(1, 'edit_file', { file_path: 'data/big.txt', old_content: lastLine, new_content: `${lastLine} (edited in trial ${trial})` })];
    case 'command':
      return [call(0, 'run_command', { command: "rm docs/guide.md && printf 'export const app = 2;\\n' > src/app.ts" })];
    case 'multi':
      return [
        call(0, 'read_file', { file_path: 'src/app.ts' }),
        call(1, 'read_file', { file_path: 'data/big.txt' }),
        call(2, 'edit_file', { file_path: 'src/app.ts', old_content: 'app = 1', new_content: 'app = 3' }),
        call(3, 'write_file', { file_path: `src/feature-${trial}.ts`, content: 'export const feature = true;\n' }),
        call(4, 'edit_file', { file_path: 'data/big.txt', old_content: bigLine(0), new_content: `${bigLine(0)} (multi)` }),
      ];
  }
}

/** The moments of one atomic file write: the temp file made, its data flushed, renamed into place. */
const WRITE = ['temp-open', 'temp-synced', 'renamed'];
/** Around every file-changing call: undo's before (snapshot + start record) begins, has returned; the call is done. */
const call = (writes: boolean) => ['undo-before', 'armed', ...(writes ? WRITE : []), 'call-done'];

/** The moments the child reports during a step of each kind, in order (then `ran` and `stepped`). */
export function stepMoments(kind: StepKind): string[] {
  const calls = { create: [call(true)], edit: [call(true)], command: [call(false)], multi: [call(true), call(true), call(true)] }[kind];
  return [...calls.flat(), 'ran', 'stepped'];
}
