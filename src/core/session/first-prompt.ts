// The user's first message of a session, as the history view searches it: kept in the metadata
// from the first save on; read from the head of the transcript for sessions saved before that.
import { open } from 'node:fs/promises';
import { TranscriptLineSchema } from './session-schema';
import type { UserMessage } from '../messages';
import { originOf } from './user-message-origin';

/** Enough to tell sessions apart in a list and to search; the title holds the first 50 characters. */
export const FIRST_PROMPT_MAX = 300;

/** How much of a transcript is read to find the first user message of an older session. */
const HEAD_BYTES = 64 * 1024;

/** The prompt as the user typed it (a harness note cut off), on one line, clipped. */
export function firstPromptText(message: Pick<UserMessage, 'content' | 'origin'>): string {
  const origin = originOf(message);
  const text = (origin.kind === 'prompt' || origin.kind === 'followup' ? origin.text : message.content).replace(/\s+/g, ' ').trim();
  return text.length > FIRST_PROMPT_MAX ? `${text.slice(0, FIRST_PROMPT_MAX - 1)}…` : text;
}

/** The first user message in the head of a transcript file; '' when there is none or the file cannot be read. */
export async function readFirstPrompt(transcriptFile: string): Promise<string> {
  let handle;
  try {
    handle = await open(transcriptFile, 'r');
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    for (const line of buffer.subarray(0, bytesRead).toString('utf8').split('\n')) {
      const parsed = parseLine(line);
      if (parsed?.role === 'user') return firstPromptText(parsed);
    }
    return '';
  } catch {
    return '';
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

function parseLine(line: string): { role: string; content: string } | undefined {
  if (!line.trim()) return undefined;
  try {
    const parsed = TranscriptLineSchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined; // the torn end of the head, or a damaged line
  }
}
