import * as z from 'zod';
import { applySymbolEdits } from './symbols/apply-symbol-edits';
import { identifierProblem } from './symbols/identifier';
import { resolveSymbolInFile, symbolPort, wordMentions } from './symbols/symbol-lookup';
import { ToolError, type Tool } from './tool';
import { displayPath, resolveInWorkspace } from '../files/workspace-path';

/** Leftover mentions of the old name listed after a rename. */
const MAX_LEFT_SHOWN = 10;

const schema = z.lazy(() => z.object({
  file_path: z.string().min(1).describe('File declaring the symbol.'),
  name_path: z.string().min(1).describe('e.g. Shape.area'),
  new_name: z.string().describe('The new identifier.'),
}));

/**
 * Renames a symbol and every reference the language server knows, in all files, as one workspace
 * edit through the editor (saved; undone with the step).
 */
export const renameSymbolTool: Tool<typeof schema> = {
  name: 'rename_symbol',
  category: 'file',
  readOnly: false,
  schema,
  approval: (args) => ({ kind: 'file', path: args.file_path }),
  async run(args, ctx) {
    const port = symbolPort(ctx);
    const file = resolveInWorkspace(ctx.workspaceRoot, args.file_path);
    const newName = args.new_name.trim();
    const problem = identifierProblem(newName, file);
    if (problem) throw new ToolError('other', `Cannot rename to ${JSON.stringify(args.new_name)}: ${problem}.`);
    const target = await resolveSymbolInFile(ctx, port, file, args.name_path);
    const oldName = target.namePath.join('.');
    if (target.node.name === newName) throw new ToolError('other', `${oldName} is already called ${newName}; nothing to rename.`);

    let edits;
    try {
      edits = await port.renameEdits(file, target.node.selectionRange.start, newName);
    } catch (err) {
      throw new ToolError('other', `The language server cannot rename ${oldName}: ${(err as Error).message}`);
    }
    // The declaring file first: the editor shows the first file of an edit (see SymbolPort.applyEdits).
    edits = edits.filter((e) => e.edits.length > 0).sort((a, b) => Number(b.file === file) - Number(a.file === file));
    if (edits.length === 0) throw new ToolError('not_found', `The language server offers no rename for ${oldName} in ${displayPath(ctx.workspaceRoot, file)}. Use edit_file for each occurrence.`);

    const result = await applySymbolEdits(ctx, port, edits.map((e) => e.file), async () => ({ edits }));
    const perFile = edits
      .map((e) => {
        const lines = [...new Set(e.edits.map((t) => t.range.start.line + 1))].sort((a, b) => a - b);
        return `${displayPath(ctx.workspaceRoot, e.file)}: ${e.edits.length} (line${lines.length === 1 ? '' : 's'} ${lines.join(', ')})`;
      })
      .sort();
    const total = edits.reduce((n, e) => n + e.edits.length, 0);
    const what = `Renamed ${oldName} to ${newName}: ${total} edit${total === 1 ? '' : 's'} in ${edits.length} file${edits.length === 1 ? '' : 's'}`;
    const errors = result.errors.length ? `, ${result.errors.length} error${result.errors.length === 1 ? '' : 's'}` : '';
    const left = await wordMentions(ctx, target.node.name);
    const leftNote = left.length
      ? `\n\n${target.node.name} still appears as a word in ${left.length} place${left.length === 1 ? '' : 's'}: ${left.slice(0, MAX_LEFT_SHOWN).join(', ')}${left.length > MAX_LEFT_SHOWN ? ', …' : ''}. Other symbols of that name, comments and strings are left alone, and so are files the language server had not loaded: check any that should have changed.`
      : '';
    return {
      ok: true,
      output: `${what}, saved:\n${perFile.join('\n')}\n\n${result.errorReport}${leftNote}`,
      summary: `✓ ${what}${errors}`,
    };
  },
};
