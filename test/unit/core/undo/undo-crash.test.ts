import * as assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { encodeProjectPath } from '../../../../src/core/session/session-store';
import { createBuiltinRegistry } from '../../../../src/core/tools/builtin-tools';
import { UndoManager } from '../../../../src/core/undo/undo-manager';
import { initialFiles, stepMoments, type CrashPlan, type StepKind } from './undo-crash-steps';
import { initProjectRepo, workspaceState, writeFiles } from './workspace-state';

// Bundled (esbuild.config.mjs): 50 children load in a third of the time.
const CHILD = join(__dirname, 'undo-crash-child.bundle.js');
const TRIALS = 50;
/** Trials run in independent lanes (a project and an OPENDEV_HOME each), so waits overlap. */
const LANES = 3;
const KINDS: StepKind[] = ['create', 'edit', 'command', 'multi'];

/** Where a trial kills its child: at moment `at` of the last step, `exactly` there or just after it (`go`, then the kill). */
interface KillPoint {
  kind: StepKind;
  at: number;
  exactly: boolean;
}

/**
 * Every moment of every kind of step, killed exactly there and, where the child goes on to do
 * something, just after it. A command's shell runs in a process group of its own that a kill of
 * the child does not reach, so a command step is killed only where no shell is running.
 */
function killPoints(): KillPoint[] {
  const points: KillPoint[] = [];
  for (const kind of KINDS) {
    const moments = stepMoments(kind);
    moments.forEach((name, at) => {
      points.push({ kind, at, exactly: true });
      const shellMayRun = kind === 'command' && (name === 'undo-before' || name === 'armed');
      if (name !== 'stepped' && !shellMayRun) points.push({ kind, at, exactly: false });
    });
  }
  return points;
}

/** The files (path → mode and content hash). Folders are git's blind spot: an empty one a killed write_file made is not a file change. */
const filesOf = (root: string) => Object.fromEntries(Object.entries(workspaceState(root)).filter(([path]) => !path.endsWith('/')));

/** How many step start records of `session` the operation log holds on disk. */
function startRecords(home: string, workspace: string, session: string): number {
  const log = join(home, 'projects', encodeProjectPath(workspace), 'operations.jsonl');
  let text = '';
  try {
    text = readFileSync(log, 'utf8');
  } catch {
    return 0;
  }
  return text.split('\n').filter((line) => line.includes('"type":"start"') && line.includes(`"session":"${session}"`)).length;
}

/** The child's stdout, line by line, as promises; its death while a line is awaited rejects with its stderr. */
class ChildLines {
  private readonly lines: string[] = [];
  private readonly waiters: Array<{ resolve: (line: string) => void; reject: (err: Error) => void }> = [];
  private stderr = '';
  /** What the child's UndoManager said (warnings explain a miss). */
  readonly notices: string[] = [];
  readonly exited: Promise<NodeJS.Signals | null>;

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('notice ')) return void this.notices.push(line.slice(7));
      const waiter = this.waiters.shift();
      if (waiter) waiter.resolve(line);
      else this.lines.push(line);
    });
    child.stderr.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((resolve) =>
      child.on('exit', (_code, signal) => {
        for (const w of this.waiters.splice(0)) w.reject(new Error(`the child ended (${signal ?? 'exit'}): ${this.stderr.slice(-2000)}`));
        resolve(signal);
      }),
    );
  }

  next(): Promise<string> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  async expect(line: string): Promise<void> {
    const got = await this.next();
    if (got !== line) throw new Error(`the child said "${got}" where "${line}" was expected (stderr: ${this.stderr.slice(-2000)})`);
  }

  go(): void {
    this.say('go');
  }

  say(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /** A child a failed trial left running. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) await this.kill().catch(() => undefined);
  }

  /** SIGKILL to the child's process group: it and the git it may be running die at once. */
  async kill(): Promise<void> {
    process.kill(-this.child.pid!, 'SIGKILL');
    const signal = await this.exited;
    if (signal !== 'SIGKILL') throw new Error(`the child ended on its own: ${this.stderr.slice(-2000)}`);
  }
}

/**
 * The undo crash test of issue 15: a session's process is killed with SIGKILL at every kind of
 * moment of a step (during the snapshot before it, between the flushed start record and the first
 * write, with a temp file half-written or flushed, after the rename, during the snapshot after it,
 * after the step is recorded), then a new process opens the session the way `opendev --continue`
 * does and runs /undo. The files must be exactly as they were before the step: created files gone,
 * edited ones back byte for byte, deleted ones back; and /undo must never say "Nothing to undo"
 * when a write of the step reached the disk. Misses are counted; none is allowed.
 */
describe('undo after a kill -9 at any moment of a step', () => {
  it(`${TRIALS} SIGKILLs spread over the moments of a step: /undo in the resumed session restores the exact files (0 misses)`, async function () {
    this.timeout(600_000);
    const points = killPoints();
    const planOf = (trial: number): CrashPlan & { point: KillPoint } => {
      const point = points[Math.floor((trial * points.length) / TRIALS)]!;
      // Every third trial a whole step comes first: /undo must reach it too, after the killed one.
      return { trial, steps: trial % 3 === 2 ? ['create', point.kind] : [point.kind], point };
    };
    const misses = new Map<number, string>();
    let nothingWithWrites = 0;
    const registry = createBuiltinRegistry();
    const changesFiles = (name: string) => {
      const tool = registry.get(name);
      return !!tool && !tool.readOnly && tool.category !== 'todo';
    };

    /** One project and OPENDEV_HOME, its trials one after another; lanes run side by side. */
    const lane = async (trials: number[]) => {
      const workspace = mkdtempSync(join(tmpdir(), 'opendev-undo-crash-ws-'));
      const home = mkdtempSync(join(tmpdir(), 'opendev-undo-crash-home-'));
      const pristine = mkdtempSync(join(tmpdir(), 'opendev-undo-crash-pristine-'));
      // Its own process group: the kill takes the git it runs with it.
      const children: ChildLines[] = [];
      const launch = () => children[children.push(new ChildLines(spawn(process.execPath, [CHILD, home, workspace], { detached: true }))) - 1]!;
      try {
        initProjectRepo(workspace);
        writeFiles(workspace, initialFiles());
        cpSync(workspace, pristine, { recursive: true });
        const initial = filesOf(workspace);
        let session = `crash${trials[0]}`;
        // The next child loads its modules while the parent checks the last trial's files.
        let next = launch();
        for (const [k, trial] of trials.entries()) {
          const child = next;
          const plan = planOf(trial);
          const moments = stepMoments(plan.point.kind);
          await child.expect('loaded');
          child.say(`start ${JSON.stringify({ session, plan: { trial, steps: plan.steps } })}`);
          const before: Array<Record<string, string>> = [];
          let starts = 0;
          for (let n = 1; n <= plan.steps.length; n++) {
            await child.expect(`ready ${n}`);
            before.push(filesOf(workspace));
            starts = startRecords(home, workspace, session);
            child.go();
          }
          let unrecorded = false;
          for (let at = 0; ; at++) {
            assert.equal(await child.next(), `moment ${moments[at]}`, `trial ${trial}: the step went off script`);
            // The child is frozen where its call is about to write: the step's start record must be on disk already.
            if (moments[at] === 'armed' && startRecords(home, workspace, session) !== starts + 1) unrecorded = true;
            if (at < plan.point.at) {
              child.go();
              continue;
            }
            if (!plan.point.exactly) child.go();
            await child.kill();
            break;
          }
          if (k + 1 < trials.length) next = launch();

          // `opendev --continue`, then /undo until nothing is left: the killed step first, then the whole one.
          const notices = child.notices.map((n) => `killed process: ${n}`);
          const miss = (what: string) =>
            misses.has(trial) || misses.set(trial, `trial ${trial} (${plan.steps.join(' + ')}, killed ${plan.point.exactly ? 'at' : 'just after'} "${moments[plan.point.at]}"): ${what}${notices.length ? ` [${notices.join('; ')}]` : ''}`);
          if (unrecorded) miss('a call of the step was about to write with no start record of the step on disk');
          const last = before.length - 1;
          const wrote = !sameFiles(filesOf(workspace), before[last]!);
          const undo = await UndoManager.open({ workspaceRoot: workspace, home, sessionId: session, changesFiles, onNotice: (n) => notices.push(`resumed: ${n}`) });
          try {
            for (const files of (wrote ? before : before.slice(0, last)).reverse()) {
              const outcome = await undo.undoLast();
              if (outcome.status !== 'undone') {
                if (wrote && files === before[last]) nothingWithWrites++;
                miss(`/undo said "${outcome.message}" where it had a step to undo`);
                break;
              }
              const now = filesOf(workspace);
              if (!sameFiles(now, files)) {
                miss(`after /undo the files differ: ${JSON.stringify(diffOf(files, now))}`);
                break;
              }
            }
            const rest = await undo.undoLast();
            if (rest.status !== 'nothing') miss(`a further /undo did "${rest.message}"`);
          } finally {
            await undo.dispose();
          }
          if (!sameFiles(filesOf(workspace), initial)) {
            miss('the files are not back at the start');
            // Back to the start, in a new session, so the next trials are measured on their own.
            for (const name of readdirSync(workspace)) if (name !== '.git') rmSync(join(workspace, name), { recursive: true, force: true });
            cpSync(pristine, workspace, { recursive: true });
            session = `crash${trial}b`;
          }
        }
      } finally {
        await Promise.all(children.map((c) => c.stop()));
        rmSync(workspace, { recursive: true, force: true });
        rmSync(home, { recursive: true, force: true });
        rmSync(pristine, { recursive: true, force: true });
      }
    };

    const trials = Array.from({ length: TRIALS }, (_, t) => t);
    await Promise.all(Array.from({ length: LANES }, (_, l) => lane(trials.filter((t) => t % LANES === l))));
    assert.deepEqual([...misses.values()], [], `${misses.size} of ${TRIALS} trials missed, ${nothingWithWrites} of them with "Nothing to undo" while writes of the killed step were on disk`);
  });
});

const sameFiles = (a: Record<string, string>, b: Record<string, string>) => JSON.stringify(a) === JSON.stringify(b);

/** The paths whose files differ (expected → found), for the failure message. */
function diffOf(expected: Record<string, string>, found: Record<string, string>): Record<string, string> {
  const paths = new Set([...Object.keys(expected), ...Object.keys(found)]);
  const out: Record<string, string> = {};
  for (const p of paths) if (expected[p] !== found[p]) out[p] = `${expected[p] ?? 'absent'} → ${found[p] ?? 'absent'}`;
  return out;
}
