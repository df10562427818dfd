// `<id>.jsonl`: one message per line. Reading tells three kinds of damage apart: a bad line in the
// middle (skipped; the file is rewritten on the next save), a last line cut off by a killed writer
// (ignored; the next append starts where the last whole line ends), and a whole last line whose
// newline never made it (kept; the next append adds the newline first).
import type { Message } from '../messages';
import { fromTranscriptLine, toTranscriptLine, TranscriptLineSchema } from './session-schema';

export interface ParsedTranscript {
  /** The messages read, in order (not yet repaired; see repairConversation). */
  messages: Message[];
  problems: string[];
  /** Byte offset just after the last whole message: where the next append goes. */
  end: number;
  /** Lines before the end were skipped: the file no longer matches the conversation. */
  damaged: boolean;
  /** The last message is whole but has no newline yet. */
  newlineMissing: boolean;
}

export function parseTranscript(bytes: Buffer, file: string): ParsedTranscript {
  const cut = bytes.lastIndexOf(0x0a) + 1;
  const out: ParsedTranscript = { messages: [], problems: [], end: cut, damaged: false, newlineMissing: false };
  const lines = bytes.subarray(0, cut).toString('utf8').split('\n');
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const parsed = parseLine(line);
    if (typeof parsed === 'string') {
      out.problems.push(`${file}:${i + 1}: ${parsed}, skipped`);
      out.damaged = true;
    } else out.messages.push(parsed);
  });
  const tail = bytes.subarray(cut).toString('utf8');
  if (tail.trim()) {
    const parsed = parseLine(tail);
    if (typeof parsed === 'string') {
      out.problems.push(`${file}:${lines.length}: the last line was cut off by an interrupted write; ignored (the next save replaces it)`);
    } else {
      out.messages.push(parsed);
      out.end = bytes.length;
      out.newlineMissing = true;
    }
  }
  return out;
}

function parseLine(line: string): Message | string {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return 'not valid JSON';
  }
  const parsed = TranscriptLineSchema.safeParse(json);
  if (!parsed.success) return `not a message (${parsed.error.issues[0]?.message ?? 'invalid'})`;
  return fromTranscriptLine(parsed.data);
}

/** The lines for `messages`, each ending in a newline, stamped with `at`. */
export function transcriptText(messages: readonly Message[], at: string): string {
  return messages.map((m) => `${JSON.stringify(toTranscriptLine(m, at))}\n`).join('');
}
