// Reading sessions back: metadata files (validated; a legacy single-file session is migrated on the
// way) and transcripts (damage skipped and reported, the conversation repaired for a provider).
// Readers take no lock: every file is replaced atomically or only ever grows by whole lines.
import { constants } from 'node:fs';
import { copyFile, open, readFile } from 'node:fs/promises';
import type { Message } from '../messages';
import { writeFileDurably, type FileState } from '../files/durable-files';
import { withFileLock, type LockOptions } from '../files/file-lock';
import { convertLegacySession, isLegacySession } from './legacy-session';
import { sessionFiles, type LoadedSession } from './session-record';
import { repairConversation, SessionMetaSchema, type SessionMeta } from './session-schema';
import { parseTranscript, transcriptText } from './transcript-file';

export interface ReaderContext {
  onProblem: (problem: string) => void;
  lock: LockOptions;
  now: () => Date;
}

type Parsed = { meta: SessionMeta } | { legacy: unknown } | undefined;

/** A session's metadata; undefined (reported) when missing or unreadable. A legacy file is migrated first. */
export async function readSessionMeta(dir: string, id: string, workingDir: string, ctx: ReaderContext): Promise<SessionMeta | undefined> {
  const parsed = await parseMetaFile(sessionFiles(dir, id).meta, ctx.onProblem);
  if (!parsed) return undefined;
  if ('meta' in parsed) return parsed.meta;
  return migrateLegacy(dir, id, workingDir, ctx);
}

async function parseMetaFile(file: string, onProblem: (problem: string) => void): Promise<Parsed> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') onProblem(`${file}: unreadable (${(err as Error).message}), skipped`);
    return undefined;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    onProblem(`${file}: not valid JSON, skipped`);
    return undefined;
  }
  if (isLegacySession(json)) return { legacy: json };
  const parsed = SessionMetaSchema.safeParse(json);
  if (!parsed.success) {
    onProblem(`${file}: not session metadata (${parsed.error.issues[0]?.message ?? 'invalid'}), skipped`);
    return undefined;
  }
  return { meta: parsed.data };
}

/**
 * `<id>.json` with inline messages → `<id>.json` + `<id>.jsonl`, keeping the original as `.bak`.
 * Under the session's lock (two readers may meet the same old file); the metadata rename is the
 * commit point, so a crash part-way leaves the old file, which migrates again next time.
 */
async function migrateLegacy(dir: string, id: string, workingDir: string, ctx: ReaderContext): Promise<SessionMeta | undefined> {
  const files = sessionFiles(dir, id);
  try {
    return await withFileLock(
      files.lock,
      async () => {
        const again = await parseMetaFile(files.meta, ctx.onProblem);
        if (!again || 'meta' in again) return again?.meta;
        const converted = convertLegacySession(again.legacy, files.meta, { workingDir, now: ctx.now().toISOString() });
        if (typeof converted === 'string') {
          ctx.onProblem(`${files.meta}: ${converted}, skipped`);
          return undefined;
        }
        for (const p of converted.problems) ctx.onProblem(p);
        await copyFile(files.meta, files.backup, constants.COPYFILE_EXCL).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'EEXIST') throw err; // an earlier, interrupted migration already kept it
        });
        await writeFileDurably(files.transcript, transcriptText(converted.messages, converted.meta.updatedAt));
        await writeFileDurably(files.meta, `${JSON.stringify(converted.meta, null, 2)}\n`);
        ctx.onProblem(
          `${files.meta}: migrated from the single-file format (${converted.messages.length} messages) to ${id}.json + ${id}.jsonl; the original is kept as ${id}.json.bak`,
        );
        return converted.meta;
      },
      ctx.lock,
    );
  } catch (err) {
    ctx.onProblem(`${files.meta}: could not migrate from the single-file format (${(err as Error).message}); the file is unchanged`);
    return undefined;
  }
}

/** The transcript of a session whose metadata was read, with the writer's view of the file. */
export async function readSessionTranscript(dir: string, meta: SessionMeta, ctx: ReaderContext): Promise<LoadedSession> {
  const file = sessionFiles(dir, meta.id).transcript;
  const problems: string[] = [];
  let read: { bytes: Buffer; state: FileState } = { bytes: Buffer.alloc(0), state: undefined };
  try {
    read = await readStable(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`${file}: unreadable (${(err as Error).message})`);
  }
  const parsed = parseTranscript(read.bytes, file);
  problems.push(...parsed.problems);
  const { messages, repaired } = repairConversation(parsed.messages);
  if (repaired > 0) problems.push(`${file}: ${repaired} message(s) had tool calls or results without their counterpart; repaired`);
  for (const p of problems) ctx.onProblem(p);
  return {
    record: {
      meta: { ...meta, messageCount: messages.length },
      persisted: messages.length,
      needsRewrite: parsed.damaged || repaired > 0,
      transcript: { state: read.state, end: parsed.end, newlineMissing: parsed.newlineMissing },
      written: messages,
    },
    messages: [...messages] as Message[],
    problems,
  };
}

/** The file's bytes and its size/time at that moment (re-read while another process is appending). */
async function readStable(file: string): Promise<{ bytes: Buffer; state: FileState }> {
  const handle = await open(file, 'r');
  try {
    for (let attempt = 0; ; attempt++) {
      const before = await handle.stat();
      const bytes = await readAll(handle, before.size);
      const after = await handle.stat();
      if ((after.size === bytes.length && after.mtimeMs === before.mtimeMs) || attempt >= 4) return { bytes, state: { size: after.size, mtimeMs: after.mtimeMs } };
    }
  } finally {
    await handle.close();
  }
}

async function readAll(handle: Awaited<ReturnType<typeof open>>, size: number): Promise<Buffer> {
  const bytes = Buffer.alloc(size);
  let done = 0;
  while (done < size) {
    const { bytesRead } = await handle.read(bytes, done, size - done, done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return bytes.subarray(0, done);
}
