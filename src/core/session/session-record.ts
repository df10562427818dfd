// What a writer knows about a session it writes, and where the files of a session live.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Message } from '../messages';
import type { FileState } from '../files/durable-files';
import { fromTranscriptLine, toTranscriptLine, type SessionMeta } from './session-schema';

/** The transcript as this writer last read or wrote it. */
export interface TranscriptMark {
  /** Size and time of the file then: a different file now means another process wrote it. */
  state: FileState;
  /** Byte offset just after the last whole message (beyond it: a torn line, cut on the next append). */
  end: number;
  /** The last message has no newline yet. */
  newlineMissing: boolean;
}

/** A session being written: its metadata and how much of the conversation is already on disk. */
export interface SessionRecord {
  meta: SessionMeta;
  /** Messages of the conversation already in the transcript. */
  persisted: number;
  /**
   * Digest of the persisted messages: tells an extended conversation from a rewritten one
   * (compaction) when identity does not. Computed from `written` when first needed.
   */
  digest?: string;
  /** The transcript on disk differs from the conversation (damaged lines were skipped): rewrite it on the next sync. */
  needsRewrite?: boolean;
  transcript?: TranscriptMark;
  /**
   * The messages last persisted, compared by identity first (a history only ever replaces its
   * messages, never edits one in place, so the same objects mean the same content).
   */
  written?: readonly Message[];
}

export interface LoadedSession {
  record: SessionRecord;
  /** The conversation, repaired so a provider accepts it. */
  messages: Message[];
  /** What was wrong with the files (skipped lines, repaired tool calls, a migration); empty when nothing. */
  problems: string[];
}

export function sessionFiles(dir: string, id: string): { meta: string; transcript: string; lock: string; backup: string } {
  return { meta: join(dir, `${id}.json`), transcript: join(dir, `${id}.jsonl`), lock: join(dir, `${id}.lock`), backup: join(dir, `${id}.json.bak`) };
}

/** A hash chain over messages: chainDigest(a ++ b) === chainDigest(b, chainDigest(a)). */
export function chainDigest(messages: readonly Message[], previous = ''): string {
  let hash = previous;
  // Canonical form (fixed key order, Message fields only), so a resumed conversation matches its file.
  for (const m of messages) hash = createHash('sha1').update(hash).update(JSON.stringify(fromTranscriptLine(toTranscriptLine(m, '')))).digest('hex');
  return hash;
}

/** Whether `conversation` starts with what the record has persisted (an extension, not a rewrite). */
export function extendsPersisted(record: SessionRecord, conversation: readonly Message[]): boolean {
  if (record.needsRewrite || conversation.length < record.persisted) return false;
  if (record.persisted === 0) return true;
  const written = record.written;
  if (written && written.length === record.persisted) {
    let same = true;
    for (let i = 0; i < written.length && same; i++) same = written[i] === conversation[i];
    if (same) return true;
    record.digest ??= chainDigest(written);
  }
  return chainDigest(conversation.slice(0, record.persisted)) === record.digest;
}
