import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cutLine, type SearchOutcome } from './results';

/** Bytes read on each side of the match (more than shown: the window is cut by characters). */
const WINDOW_BYTES = 1200;

/**
 * For shown matches on lines so long that ripgrep only previewed their start (minified code), reads
 * the text around the match from the file. Only the handful of shown lines is read; a file that
 * cannot be read keeps its preview.
 */
export async function fillLongLines(workspaceRoot: string, outcome: SearchOutcome): Promise<void> {
  for (const file of outcome.files) {
    const pending = file.blocks.flat().filter((line) => line.fillAt !== undefined);
    if (pending.length === 0) continue;
    let content: Buffer;
    try {
      content = await readFile(join(workspaceRoot, file.path));
    } catch {
      continue;
    }
    const starts = lineStarts(content, Math.max(...pending.map((l) => l.line)));
    for (const line of pending) {
      const lineStart = starts[line.line - 1];
      if (lineStart === undefined) continue;
      const at = lineStart + line.fillAt!;
      let lineEnd = content.indexOf(10, lineStart);
      if (lineEnd === -1) lineEnd = content.length;
      const from = Math.max(lineStart, at - WINDOW_BYTES);
      const before = content.subarray(from, at).toString('utf8');
      const window = before + content.subarray(at, Math.min(lineEnd, at + WINDOW_BYTES)).toString('utf8');
      const cut = cutLine(window, before.length, true);
      line.text = from > lineStart && !cut.startsWith('…') ? `…${cut}` : cut;
      delete line.fillAt;
    }
  }
}

/** Byte offsets where lines 1…upTo start. */
function lineStarts(content: Buffer, upTo: number): number[] {
  const starts = [0];
  for (let at = 0; starts.length < upTo; ) {
    const nl = content.indexOf(10, at);
    if (nl === -1) break;
    starts.push(nl + 1);
    at = nl + 1;
  }
  return starts;
}
