// Reading one settings.json (user, project, or Claude's): never throws, never writes. A file that
// cannot be used is described (path and exact problem) so the caller can report it and skip it;
// the file itself is left exactly as the user wrote it.
import { readFileSync } from 'node:fs';

export type SettingsFileRead =
  | { status: 'missing'; file: string }
  | { status: 'ok'; file: string; settings: Record<string, unknown> }
  | { status: 'unreadable' | 'invalid-json' | 'not-an-object'; file: string; problem: string };

export function readSettingsFile(file: string): SettingsFileRead {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { status: 'missing', file };
    return { status: 'unreadable', file, problem: (err as Error).message };
  }
  // Editors on Windows may save a byte-order mark; JSON.parse rejects it.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') return { status: 'invalid-json', file, problem: 'the file is empty' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { status: 'invalid-json', file, problem: describeJsonError((err as Error).message, text) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { status: 'not-an-object', file, problem: `it holds ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}, not a JSON object` };
  }
  return { status: 'ok', file, settings: value as Record<string, unknown> };
}

/** V8's message plus the line and column (Node 20 only gives the offset), e.g. "… at position 14 (line 3, column 3)". */
export function describeJsonError(message: string, text: string): string {
  if (/line \d+/.test(message)) return message;
  const position = /at position (\d+)/.exec(message);
  // A truncated file (an editor or a writer stopped half-way) ends before the JSON does.
  if (!position && !/end of JSON input/.test(message)) return message;
  const offset = position ? Number(position[1]) : text.length;
  const before = text.slice(0, offset).split('\n');
  return `${message} (line ${before.length}, column ${before[before.length - 1]!.length + 1})`;
}
