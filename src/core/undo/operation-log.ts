import { appendFile, open, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as z from 'zod';
import { mkdirPrivate, PRIVATE_FILE_MODE } from '../config/private-files';
import { writeFileDurably } from '../files/durable-files';
import { syncFolder } from '../files/sync-folder';
import { SerialQueue } from '../serial-queue';

// This file's schemas are built on their first parse (z.lazy): a start-up that reads none of its records does not pay for them.
/** One file-changing tool call (write_file, edit_file, run_command, any tool that is not read-only). */
export const OperationRecordSchema = z.lazy(() => z.object({
  type: z.literal('operation'),
  session: z.string(),
  step: z.number().int().positive(),
  tool: z.string(),
  /** The paths the call names (a command's effects are known only from the step's snapshot). */
  paths: z.array(z.string()),
  command: z.string().optional(),
  ok: z.boolean(),
  at: z.string(),
}));

/** One step (a model response's tool calls) that changed files, with the snapshots around it. */
export const StepRecordSchema = z.lazy(() => z.object({
  type: z.literal('step'),
  session: z.string(),
  step: z.number().int().positive(),
  /** Shadow-repo trees just before the step's first change and just after its last. */
  before: z.string(),
  after: z.string(),
  changed: z.array(z.object({ path: z.string(), change: z.enum(['added', 'modified', 'deleted']) })),
  /** Files over the size cap that the step created, changed or deleted: undo cannot bring them back. */
  skipped: z.array(z.object({ path: z.string(), bytes: z.number() })),
  tools: z.array(z.string()),
  /** The ids of the tool calls that ran in the step (older logs have none). */
  calls: z.array(z.string()).optional(),
  at: z.string(),
}));

/**
 * A step's before-state, on disk (flushed) before the step's first write: a crash at any moment after
 * it leaves the step undoable. Closed by its `step` record, or by `end` when there is nothing to undo.
 */
export const StepStartRecordSchema = z.lazy(() => z.object({
  type: z.literal('start'),
  session: z.string(),
  step: z.number().int().positive(),
  /** The shadow-repo tree of the workspace just before the step's first change. */
  before: z.string(),
  /** Files over the size cap just before (not in `before`). */
  oversized: z.array(z.object({ path: z.string(), bytes: z.number(), mtimeMs: z.number() })),
  /** The step's first file-changing call. */
  tool: z.string(),
  call: z.string(),
  at: z.string(),
}));

/** A started step that left nothing to undo (it changed nothing, or its after-snapshot failed). */
export const StepEndRecordSchema = z.lazy(() => z.object({
  type: z.literal('end'),
  session: z.string(),
  step: z.number().int().positive(),
  at: z.string(),
}));

/** Steps undone by /undo; `savedTree` is the workspace just before, should anyone need it back. */
export const UndoRecordSchema = z.lazy(() => z.object({
  type: z.literal('undo'),
  session: z.string(),
  steps: z.array(z.number().int().positive()),
  savedTree: z.string().optional(),
  at: z.string(),
}));

const LogLineSchema = z.lazy(() => z.discriminatedUnion('type', [OperationRecordSchema, StepRecordSchema, StepStartRecordSchema, StepEndRecordSchema, UndoRecordSchema]));

export type OperationRecord = z.infer<typeof OperationRecordSchema>;
export type StepRecord = z.infer<typeof StepRecordSchema>;
export type StepStartRecord = z.infer<typeof StepStartRecordSchema>;
export type StepEndRecord = z.infer<typeof StepEndRecordSchema>;
export type UndoRecord = z.infer<typeof UndoRecordSchema>;
export type LogLine = z.infer<typeof LogLineSchema>;

/** A step that started and was never closed: its process died mid-step. */
export interface InterruptedStep {
  start: StepStartRecord;
  /** The tools its calls used, as far as the log knows. */
  tools: string[];
  /** The before-tree of the session's next step, where the interrupted one's changes end. */
  nextBefore?: string;
}

export interface SessionHistory {
  steps: StepRecord[];
  undone: Set<number>;
  /** The highest step number the session used (operations included); 0 for a new session. */
  lastStep: number;
  /** Steps cut short by a crash, oldest first. */
  interrupted: InterruptedStep[];
}

/** The paper's undo history: this many operations (and steps) in memory; all of them on disk. */
export const IN_MEMORY_LIMIT = 50;
/** A log over this size is cut to its newer half when a session starts writing to it. */
const MAX_LOG_BYTES = 4 * 1024 * 1024;

/**
 * The project's operation log: the last 50 operations and steps in memory, every record appended to
 * `operations.jsonl` (best effort: a write that fails is reported once and undo still works in this
 * session from memory). Reading it back validates each line; a damaged line is skipped, not fatal.
 */
export class OperationLog {
  private readonly recentOperations: OperationRecord[] = [];
  private readonly recentSteps: StepRecord[] = [];
  private readonly writes = new SerialQueue();
  private started = false;
  private foldersSynced = false;
  private warned = false;

  constructor(
    readonly file: string,
    private readonly onWarning: (message: string) => void = () => {},
    /** Told about every record as it is written (the host's log). */
    private readonly onRecord: (record: LogLine) => void = () => {},
  ) {}

  get operations(): readonly OperationRecord[] {
    return this.recentOperations;
  }

  get steps(): readonly StepRecord[] {
    return this.recentSteps;
  }

  recordOperation(record: OperationRecord): void {
    keepLast(this.recentOperations, record);
    this.append(record);
  }

  recordStep(record: StepRecord): void {
    keepLast(this.recentSteps, record);
    // A step closed late (cut short by a crash, closed by the next process) still sorts by its number.
    this.recentSteps.sort((a, b) => a.step - b.step);
    this.append(record);
  }

  /** Resolves once the record is flushed to disk: false when it could not be written (reported). */
  recordStart(record: StepStartRecord): Promise<boolean> {
    return this.append(record, true);
  }

  recordEnd(record: StepEndRecord): void {
    this.append(record);
  }

  recordUndo(record: UndoRecord): void {
    this.append(record);
  }

  /** Resolves when every record so far is written (or has failed). */
  flushed(): Promise<void> {
    return this.writes.idle();
  }

  /** A session's step records, the steps it undid, its last step number and its interrupted steps, from disk. */
  async readSession(session: string): Promise<SessionHistory> {
    await this.flushed();
    const steps: StepRecord[] = [];
    const undone = new Set<number>();
    const starts = new Map<number, StepStartRecord>();
    const closed = new Set<number>();
    const tools = new Map<number, string[]>();
    let lastStep = 0;
    for (const line of await readLines(this.file)) {
      if (line.session !== session) continue;
      if (line.type === 'undo') {
        for (const n of line.steps) undone.add(n);
        continue;
      }
      lastStep = Math.max(lastStep, line.step);
      if (line.type === 'step') steps.push(line);
      if (line.type === 'start') starts.set(line.step, line);
      if (line.type === 'step' || line.type === 'end') closed.add(line.step);
      if (line.type === 'operation') tools.set(line.step, [...(tools.get(line.step) ?? []), line.tool]);
    }
    const befores = [...starts.values(), ...steps].sort((a, b) => a.step - b.step);
    const interrupted = [...starts.values()]
      .filter((s) => !closed.has(s.step))
      .sort((a, b) => a.step - b.step)
      .map((start) => {
        const next = befores.find((b) => b.step > start.step);
        return { start, tools: [...new Set([start.tool, ...(tools.get(start.step) ?? [])])], ...(next ? { nextBefore: next.before } : {}) };
      });
    return { steps, undone, lastStep, interrupted };
  }

  /** A resumed session's earlier steps, back in memory (the last 50) without being written again. */
  seed(steps: readonly StepRecord[]): void {
    for (const step of steps) keepLast(this.recentSteps, step);
  }

  /** Appends in order; `durable` flushes the record (and, the first time, the folders that name the file). */
  private append(record: LogLine, durable = false): Promise<boolean> {
    this.onRecord(record);
    return this.writes.run(async () => {
      try {
        if (!this.started) {
          this.started = true;
          await mkdirPrivate(dirname(this.file));
          await trimIfLarge(this.file);
        }
        const line = `${JSON.stringify(record)}\n`;
        if (!durable) {
          await appendFile(this.file, line, { mode: PRIVATE_FILE_MODE });
          return true;
        }
        await appendFlushed(this.file, line);
        if (!this.foldersSynced) {
          this.foldersSynced = true;
          await syncFolder(dirname(this.file));
          await syncFolder(dirname(dirname(this.file)));
        }
        return true;
      } catch (err) {
        if (!this.warned) {
          this.warned = true;
          this.onWarning(`Could not write the operation log ${this.file} (${(err as Error).message}); /undo still works for this session's steps.`);
        }
        return false;
      }
    });
  }
}

async function appendFlushed(file: string, line: string): Promise<void> {
  const handle = await open(file, 'a', PRIVATE_FILE_MODE);
  try {
    await handle.appendFile(line, 'utf8');
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

function keepLast<T>(list: T[], item: T): void {
  list.push(item);
  if (list.length > IN_MEMORY_LIMIT) list.splice(0, list.length - IN_MEMORY_LIMIT);
}

async function readLines(file: string): Promise<LogLine[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const lines: LogLine[] = [];
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue;
    try {
      const parsed = LogLineSchema.safeParse(JSON.parse(raw));
      if (parsed.success) lines.push(parsed.data);
    } catch {
      // a torn or hand-edited line: skipped
    }
  }
  return lines;
}

/** Keeps the newer half of an oversized log (flushed temp file + rename: a crash leaves the old or the new one). */
async function trimIfLarge(file: string): Promise<void> {
  const size = await stat(file).then((s) => s.size).catch(() => 0);
  if (size <= MAX_LOG_BYTES) return;
  const text = await readFile(file, 'utf8');
  const tail = text.slice(text.length - MAX_LOG_BYTES / 2);
  await writeFileDurably(file, tail.slice(tail.indexOf('\n') + 1));
}
