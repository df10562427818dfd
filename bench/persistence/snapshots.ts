// Shadow-git snapshot time per step on a generated repository of 20,000 files: the first (cold)
// snapshot, then ~20 steps that each change a few files (incremental; target p95 under 300 ms), the
// unchanged snapshot a step waits for before its first write, a whole step through UndoManager (what
// the turn waits for vs. what runs in the background), an undo, and a new session's first snapshot.
// Durability: the flushed start record a step's first write waits for, against a plain append of
// the same log measured in the same run.
import { existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ToolCall } from '../../src/core/messages';
import { encodeProjectPath } from '../../src/core/session/session-store';
import type { ToolResult } from '../../src/core/tools/tool';
import { OperationLog } from '../../src/core/undo/operation-log';
import { ShadowRepo } from '../../src/core/undo/shadow-repo';
import { SnapshotTaker } from '../../src/core/undo/snapshot-taker';
import { UndoManager } from '../../src/core/undo/undo-manager';
import { toolContext } from '../../test/helpers/tool-context';
import { percentile, printTable } from '../stats';

const FILES = 20_000;
const STEPS = 20;
const TARGET_MS = 300;

/** Where generated file `i` lives: 40 packages × 25 modules. */
function fileOf(root: string, i: number): string {
  return join(root, `pkg${i % 40}`, `mod${Math.floor(i / 40) % 25}`, `file${i}.ts`);
}

/** 20,000 small source files, plus ignored build output and the .gitignore that says so. */
function generateRepository(root: string): void {
  for (let i = 0; i < FILES; i++) {
    if (i < 1000) mkdirSync(join(fileOf(root, i), '..'), { recursive: true });
    writeFileSync(fileOf(root, i), `export const value${i} = ${i};\n`.repeat(5 + (i % 50)));
  }
  writeFileSync(join(root, '.gitignore'), 'dist/\nnode_modules/\n');
  mkdirSync(join(root, 'dist'));
  for (let i = 0; i < 500; i++) writeFileSync(join(root, 'dist', `chunk${i}.js`), 'ignored\n');
}

/** One step's worth of changes: two files edited, one created, every third step one deleted. */
function changeFewFiles(root: string, step: number): void {
  for (const i of [step * 7, step * 13 + 1]) writeFileSync(fileOf(root, i), `// step ${step}\n`);
  writeFileSync(join(root, `pkg${step % 40}`, `new-${step}.ts`), `export const step = ${step};\n`);
  if (step % 3 === 0) unlinkSync(fileOf(root, step * 11 + 2000));
}

/** Short waits, to a tenth of a millisecond. */
const fine = (label: string, samples: number[]): Record<string, string> => ({
  measure: label,
  p50: `${percentile(samples, 50).toFixed(1)} ms`,
  p95: `${percentile(samples, 95).toFixed(1)} ms`,
  max: `${Math.max(...samples).toFixed(1)} ms`,
  target: '',
});

async function time<T>(run: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await run();
  return [performance.now() - start, value];
}

const ms = (n: number) => `${Math.round(n)} ms`;
const stats = (label: string, samples: number[], target?: number): Record<string, string> => ({
  measure: label,
  p50: ms(percentile(samples, 50)),
  p95: ms(percentile(samples, 95)),
  max: ms(Math.max(...samples)),
  target: target === undefined ? '' : percentile(samples, 95) < target ? `< ${target} ms: met` : `< ${target} ms: MISSED`,
});

export async function benchSnapshots(): Promise<void> {
  const workspace = mkdtempSync(join(tmpdir(), 'opendev-bench-snap-ws-'));
  const home = mkdtempSync(join(tmpdir(), 'opendev-bench-snap-home-'));
  try {
    const [generateMs] = await time(async () => generateRepository(workspace));
    // The store UndoManager uses for this project, so the sessions below hand their index on.
    const repo = new ShadowRepo(join(home, 'snapshot', encodeProjectPath(workspace)), workspace, 'bench-1');
    const taker = new SnapshotTaker(repo, { opendevHome: home });
    const [coldMs, cold] = await time(() => taker.take());

    const incremental: number[] = [];
    const unchanged: number[] = [];
    for (let step = 1; step <= STEPS; step++) {
      unchanged.push((await time(() => taker.take()))[0]);
      changeFewFiles(workspace, step);
      incremental.push((await time(() => taker.take()))[0]);
    }

    // Every file's times change but not its content (a branch switch and back): the first listing
    // re-reads every file and refreshes the index, the ones after are incremental again.
    const later = Date.now() / 1000 - 1;
    for (let i = 0; i < FILES; i++) if (existsSync(fileOf(workspace, i))) utimesSync(fileOf(workspace, i), later, later);
    const touched: number[] = [];
    for (let k = 0; k < 3; k++) touched.push((await time(() => taker.take()))[0]);

    // Whole steps through the manager: the turn waits only for the snapshot before the first write.
    // A session warms up at its start (a first snapshot while the user types); measured from there.
    await repo.persistIndex();
    const undo = new UndoManager({ workspaceRoot: workspace, home, sessionId: 'bench-2', changesFiles: () => true });
    const [warmUpMs] = await time(() => undo.idle());
    const waits: number[] = [];
    const background: number[] = [];
    const ctx = toolContext({ workspaceRoot: workspace });
    for (let step = STEPS + 1; step <= 2 * STEPS; step++) {
      const call: ToolCall = { id: `c${step}`, name: 'run_command', arguments: '{"command":"edit"}' };
      waits.push((await time(() => undo.lifecycle.before!(call, ctx)))[0]);
      changeFewFiles(workspace, step);
      const result: ToolResult = { ok: true, output: '', summary: '' };
      await undo.lifecycle.after!(call, result, ctx);
      background.push((await time(async () => (undo.afterStep([call], [result]), await undo.idle())))[0]);
    }
    const [undoMs] = await time(() => undo.undoLast());
    await undo.dispose();

    // A new session copies the index the last one handed on: its first snapshot is incremental too.
    const next = new ShadowRepo(repo.gitDir, workspace, 'bench-3');
    const [nextSessionMs] = await time(() => new SnapshotTaker(next, { opendevHome: home }).take());

    const { flushed, plain } = await timeStartRecords(join(home, 'durability', 'operations.jsonl'));

    printTable(`Snapshots: shadow git on ${FILES.toLocaleString('en-US')} files (generated in ${ms(generateMs)}; ${cold.oversized.length} over the size cap)`, [
      { measure: 'cold: first snapshot of the project', p50: ms(coldMs), p95: '', max: '', target: '' },
      stats(`incremental: a step changing 3 files (${STEPS} steps)`, incremental, TARGET_MS),
      stats('unchanged: the snapshot a step waits for before its first write', unchanged, TARGET_MS),
      { measure: 'every file touched (a branch switch): next 3 snapshots', p50: touched.map(ms).join(', '), p95: '', max: '', target: '' },
      stats('UndoManager: what the turn waits for per step', waits, TARGET_MS),
      stats('UndoManager: after-step snapshot + diff (background)', background),
      { measure: 'undo of the last step', p50: ms(undoMs), p95: '', max: '', target: '' },
      { measure: "a new session's warm-up snapshot (index handed on)", p50: ms(warmUpMs), p95: '', max: '', target: '' },
      { measure: 'the next session after that one', p50: ms(nextSessionMs), p95: '', max: '', target: '' },
      fine(`durability: the flushed start record (part of the wait above; ${(percentile(flushed, 50) / Math.max(percentile(plain, 50), 0.01)).toFixed(1)}× the baseline)`, flushed),
      fine('baseline: the same record appended without a flush', plain),
    ]);
  } finally {
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

/** A step's start record as UndoManager writes it (appended and flushed), and the same line appended without a flush. */
async function timeStartRecords(file: string): Promise<{ flushed: number[]; plain: number[] }> {
  const log = new OperationLog(file);
  const record = (step: number) => ({ type: 'start' as const, session: 'bench', step, before: '0'.repeat(40), oversized: [], tool: 'edit_file', call: `c${step}`, at: new Date().toISOString() });
  const flushed: number[] = [];
  const plain: number[] = [];
  for (let step = 1; step <= STEPS; step++) {
    flushed.push((await time(() => log.recordStart(record(step))))[0]);
    plain.push((await time(async () => (log.recordEnd({ type: 'end', session: 'bench', step, at: new Date().toISOString() }), await log.flushed())))[0]);
  }
  return { flushed, plain };
}
