import { open, stat } from 'node:fs/promises';
import * as z from 'zod';
import { fileTracker } from './file-time-tracker';
import { ToolError, type Tool } from './tool';
import { displayPath, resolveReadable } from './workspace-path';

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

    const buffer = await readWhole(absolute);
    if (buffer.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
      throw new ToolError('other', `${shown} is a binary file (${info.size} bytes); read_file only reads text.`);
    }
    // The BOM is not part of the first line the model sees (edit_file keeps it on its own).
    const lines = buffer.toString('utf8').replace(/^\uFEFF/, '').split(/\r?\n/);
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();

    const start = (args.offset ?? 1) - 1;
    if (start >= lines.length && lines.length > 0) {
      throw new ToolError('other', `offset ${args.offset} is past the end of ${shown}, which has ${lines.length} lines.`);
    }
    const selected = lines.slice(start, start + (args.max_lines ?? MAX_LINES));
    const numbered = selected.map((line, i) => `${String(start + i + 1).padStart(6)}\t${cutLine(line)}`).join('\n');
    const output = limitChars(numbered);
    const more = start + selected.length < lines.length
      ? `\n\n(${lines.length - start - selected.length} more lines; continue with offset ${start + selected.length + 1})`
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

async function readWhole(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

function cutLine(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut at ${MAX_LINE_CHARS} chars]` : line;
}

/** Keeps the head and tail of very large outputs: both ends usually matter most. */
function limitChars(text: string): string {
  if (text.length <= MAX_OUTPUT_CHARS) return text;
  const omitted = text.length - 2 * HEAD_TAIL_CHARS;
  return `${text.slice(0, HEAD_TAIL_CHARS)}\n… [${omitted} chars omitted] …\n${text.slice(-HEAD_TAIL_CHARS)}`;
}
