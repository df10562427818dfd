import { stat } from 'node:fs/promises';
import * as z from 'zod';
import { fileTracker } from './file-time-tracker';
import { readLineWindow, textLineWindow } from './line-window';
import { ToolError, type Tool } from './tool';
import { displayPath, resolveReadable } from '../files/workspace-path';

const MAX_LINES = 2000;
const MAX_LINE_CHARS = 2000;
const MAX_OUTPUT_CHARS = 30_000;
const HEAD_TAIL_CHARS = 10_000;
const BINARY_SNIFF_BYTES = 8192;

const schema = z.lazy(() => z.object({
  file_path: z.string().min(1).describe('Workspace-relative or absolute path.'),
  offset: z.number().int().min(1).optional().describe('First line, 1-based.'),
  max_lines: z.number().int().min(1).max(MAX_LINES).optional().describe(`Lines to read (default ${MAX_LINES}).`),
}));

export const readFileTool: Tool<typeof schema> = {
  name: 'read_file',
  category: 'file',
  readOnly: true,
  schema,
  async run(args, ctx) {
    const absolute = resolveReadable(ctx.workspaceRoot, args.file_path, ctx.readableDirs);
    const shown = displayPath(ctx.workspaceRoot, absolute);
    const info = await stat(absolute).catch(() => undefined);
    if (!info) throw new ToolError('not_found', `${shown} does not exist. Check the path with list_files or search.`);
    if (info.isDirectory()) throw new ToolError('other', `${shown} is a directory, not a file. Use list_files to see its contents.`);
    // A FIFO or a device would never end (or never start): only regular files are read.
    if (!info.isFile()) throw new ToolError('other', `${shown} is not a regular file (a pipe, socket or device); read_file only reads files.`);

    const start = (args.offset ?? 1) - 1;
    // Streamed: only the lines shown are kept, so a file of any size is read in bounded memory.
    const options = { start, count: args.max_lines ?? MAX_LINES, maxLineChars: MAX_LINE_CHARS, sniffBytes: BINARY_SNIFF_BYTES };
    // An editor host (an ACP client) answers with its buffer: what the user sees, unsaved changes included.
    const fromEditor = ctx.host?.files?.readText;
    const window = fromEditor ? textLineWindow(await fromEditor(absolute), options) : await readLineWindow(absolute, options);
    if (window.binary) throw new ToolError('other', `${shown} is a binary file (${info.size} bytes); read_file only reads text.`);
    const { lines: selected, total } = window;
    if (start >= total && total > 0) {
      throw new ToolError('other', `offset ${args.offset} is past the end of ${shown}, which has ${total} lines.`);
    }
    const numbered = selected.map((line, i) => `${String(start + i + 1).padStart(6)}\t${line}`).join('\n');
    const output = limitChars(numbered);
    const more = start + selected.length < total
      ? `\n\n(${total - start - selected.length} more lines; continue with offset ${start + selected.length + 1})`
      : '';
    // Even a partial read counts: the model saw the file as of now, which is what the stale check asks.
    fileTracker(ctx).recordRead(absolute, info.mtimeMs);
    return {
      ok: true,
      output: output + more,
      // The file's own lines and characters (not the numbered view): what the user knows the file by.
      summary: `✓ Read ${shown} (${selected.length.toLocaleString('en-US')} lines, ${selected.join('\n').length.toLocaleString('en-US')} chars)`,
    };
  },
};

/** Keeps the head and tail of very large outputs: both ends usually matter most. */
function limitChars(text: string): string {
  if (text.length <= MAX_OUTPUT_CHARS) return text;
  const omitted = text.length - 2 * HEAD_TAIL_CHARS;
  return `${text.slice(0, HEAD_TAIL_CHARS)}\n… [${omitted} chars omitted] …\n${text.slice(-HEAD_TAIL_CHARS)}`;
}
