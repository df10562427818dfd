import { stat } from 'node:fs/promises';
import * as z from 'zod';
import type { NotebookCell, NotebookCellEdit, NotebookPort } from '../notebook-port';
import { fileTracker } from './file-time-tracker';
import { ToolError, type Tool, type ToolExecutionContext } from './tool';
import { displayPath, resolveInWorkspace } from '../files/workspace-path';

const MAX_OUTLINE_CELLS = 40;
const OUTLINE_CHARS = 80;

const schema = z.lazy(() => z.object({
  file_path: z.string().min(1).describe('The .ipynb file.'),
  action: z.enum(['insert', 'replace', 'delete']).optional().describe('Default replace.'),
  cell_index: z.number().int().min(0).describe('0-based; insert puts the cell there.'),
  source: z.string().optional().describe('The cell text (insert, replace).'),
  cell_type: z.enum(['code', 'markdown']).optional().describe('Default: as replaced, or code.'),
}));

/**
 * One cell of a Jupyter notebook, through the editor's notebook API: the notebook stays valid
 * with its metadata and the other cells' outputs; a replaced code cell loses its stale outputs.
 */
export const notebookEditTool: Tool<typeof schema> = {
  name: 'notebook_edit',
  category: 'file',
  readOnly: false,
  schema,
  approval: (args) => ({ kind: 'file', path: args.file_path }),
  async run(args, ctx) {
    const port = notebookPort(ctx);
    const file = resolveInWorkspace(ctx.workspaceRoot, args.file_path);
    const shown = displayPath(ctx.workspaceRoot, file);
    if (!/\.ipynb$/i.test(file)) throw new ToolError('other', `${shown} is not a notebook (.ipynb). Use edit_file for other files.`);
    const info = await stat(file).catch(() => undefined);
    if (!info) throw new ToolError('not_found', `${shown} does not exist. Create it with write_file first (an empty notebook is {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).`);

    const tracker = fileTracker(ctx);
    return tracker.withLock(file, async () => {
      const cells = await port.cells(file).catch((err: Error) => {
        throw new ToolError('other', `${shown} could not be opened as a notebook: ${err.message}`);
      });
      const edit = planCellEdit(cells, args, shown);
      const after = await port.editCell(file, edit).catch((err: Error) => {
        throw new ToolError('other', `The editor did not apply the notebook edit: ${err.message}`);
      });
      tracker.recordWrite(file, (await stat(file)).mtimeMs);
      const kind = edit.action === 'delete' ? cells[edit.index]!.kind : edit.cell.kind;
      const did = { insert: 'Inserted', replace: 'Replaced', delete: 'Deleted' }[edit.action];
      const what = `${did} ${kind} cell ${edit.index} of ${shown}`;
      return { ok: true, output: `${what} (saved; ${after.length} cells now):\n${outline(after)}`, summary: `✓ ${what}` };
    });
  },
};

type Args = z.infer<typeof schema>;

/** Checks the index and fills in defaults: the kind and language of the cell replaced, else code in the notebook's language. */
export function planCellEdit(cells: readonly NotebookCell[], args: Args, shown: string): NotebookCellEdit {
  const action = args.action ?? 'replace';
  const index = args.cell_index;
  const last = action === 'insert' ? cells.length : cells.length - 1;
  if (index > last) {
    const range = last < 0 ? 'it has no cells; insert at 0' : `valid: 0–${last}`;
    throw new ToolError('other', `cell_index ${index} is out of range for ${action} in ${shown} (${cells.length} cells; ${range}).`);
  }
  if (action === 'delete') return { action, index };
  if (args.source === undefined) throw new ToolError('other', `source is required to ${action} a cell.`);
  const current = action === 'replace' ? cells[index] : undefined;
  const kind = args.cell_type ?? current?.kind ?? 'code';
  const codeLanguage = (current?.kind === 'code' ? current.language : undefined) ?? cells.find((c) => c.kind === 'code')?.language ?? 'python';
  return { action, index, cell: { kind, language: kind === 'markdown' ? 'markdown' : codeLanguage, source: args.source } };
}

function outline(cells: readonly NotebookCell[]): string {
  const lines = cells.slice(0, MAX_OUTLINE_CELLS).map((c, i) => {
    const first = c.source.split('\n').find((l) => l.trim() !== '')?.trim() ?? '(empty)';
    return `[${i}] ${c.kind}: ${first.length > OUTLINE_CHARS ? `${first.slice(0, OUTLINE_CHARS)}…` : first}`;
  });
  if (cells.length > MAX_OUTLINE_CELLS) lines.push(`… ${cells.length - MAX_OUTLINE_CELLS} more cells`);
  return lines.join('\n');
}

function notebookPort(ctx: ToolExecutionContext): NotebookPort {
  const port = ctx.host?.notebooks;
  if (!port) throw new ToolError('other', 'This host has no notebook support; edit the .ipynb JSON with edit_file instead.');
  return port;
}
