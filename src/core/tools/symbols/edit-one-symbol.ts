import type { DocumentSymbolNode } from '../../symbol-port';
import { unifiedDiff } from '../edit/unified-diff';
import { ToolError, type ToolExecutionContext, type ToolResult } from '../tool';
import { displayPath, resolveInWorkspace } from '../../files/workspace-path';
import type { CodeStyle } from './code-scan';
import { applySymbolEdits } from './apply-symbol-edits';
import { applyTextEdit, codeStyleOf, type PlannedEdit } from './symbol-edits';
import { SourceText } from './source-text';
import { resolveSymbolInFile, symbolPort } from './symbol-lookup';

const MAX_DIFF_CHARS = 20_000;

/**
 * The path every single-symbol edit takes: find the symbol in the file (as the editor holds it),
 * plan one text edit, apply and save it through the editor, and report the diff and the file's
 * errors afterwards. `verb` names the change in the result ("Replaced the body of").
 */
export async function editOneSymbol(
  ctx: ToolExecutionContext,
  args: { file_path: string; name_path: string },
  verb: string,
  plan: (source: SourceText, symbol: DocumentSymbolNode, style: CodeStyle) => PlannedEdit,
): Promise<ToolResult> {
  const port = symbolPort(ctx);
  const file = resolveInWorkspace(ctx.workspaceRoot, args.file_path);
  const shown = displayPath(ctx.workspaceRoot, file);
  const result = await applySymbolEdits(ctx, port, [file], async () => {
    const doc = await port.readDocument(file).catch((err: Error) => {
      throw new ToolError('not_found', `${shown} could not be opened: ${err.message}`);
    });
    if (doc.dirty) throw new ToolError('other', `${shown} has unsaved changes in the editor; ask the user to save or revert them first.`);
    const symbol = await resolveSymbolInFile(ctx, port, file, args.name_path);
    const source = new SourceText(doc.text);
    const planned = plan(source, symbol.node, codeStyleOf(file));
    if (!planned.ok) throw new ToolError('edit_mismatch', planned.reason);
    return { edits: [{ file, edits: [planned.edit] }], before: doc.text, after: applyTextEdit(source, planned.edit), name: symbol.namePath.join('.') };
  });
  const { name } = result.plan;
  const before = result.plan.before.replace(/\r\n?/g, '\n');
  const after = result.plan.after.replace(/\r\n?/g, '\n');
  const diff = unifiedDiff(before, after, shown);
  const diffText = diff.text.length > MAX_DIFF_CHARS ? `${diff.text.slice(0, MAX_DIFF_CHARS)}\n… [diff cut at ${MAX_DIFF_CHARS} chars]` : diff.text;
  const errors = result.errors.length ? `, ${result.errors.length} error${result.errors.length === 1 ? '' : 's'} after` : '';
  return {
    ok: true,
    output: `${verb} ${name} in ${shown} (saved).\n\n${diffText}\n\n${result.errorReport}`,
    summary: `✓ ${verb} ${name} in ${shown} (+${diff.added} −${diff.removed})${errors}`,
    // For the front ends' "review what changed" diff, as edit_file gives it.
    change: { path: file, before, after },
  };
}
