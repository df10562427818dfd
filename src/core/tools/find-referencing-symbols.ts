import * as z from 'zod';
import type { FileLocation } from '../symbol-port';
import { enclosingSymbol } from './symbols/name-path';
import { SourceText } from './symbols/source-text';
import { findSymbols, namePattern, resolveSymbolInFile, symbolPort, where, type SymbolMatch } from './symbols/symbol-lookup';
import { ToolError, type Tool, type ToolExecutionContext } from './tool';
import { displayPath, isInside, resolveInWorkspace } from '../files/workspace-path';

const MAX_REFERENCES = 100;
const MAX_LINE_CHARS = 160;

const schema = z.lazy(() => z.object({
  name_path: z.string().min(1).describe('The symbol, e.g. Shape.area.'),
  file_path: z.string().optional().describe('File declaring it, when the name is ambiguous.'),
}));

/** Where a symbol is used: the reference provider's locations, grouped by file, each with its line and enclosing symbol. */
export const findReferencingSymbolsTool: Tool<typeof schema> = {
  name: 'find_referencing_symbols',
  category: 'symbol',
  readOnly: true,
  schema,
  async run(args, ctx) {
    const port = symbolPort(ctx);
    const target = await locateTarget(ctx, args.name_path, args.file_path);
    const name = target.namePath.join('.');
    const declaredAt = target.node.selectionRange.start;
    const all = await port.references(target.file, declaredAt);
    const refs = all.filter((r) => !(r.file === target.file && r.range.start.line === declaredAt.line && r.range.start.character === declaredAt.character));
    const inside = refs.filter((r) => isInside(ctx.workspaceRoot, r.file));
    const declared = where(ctx.workspaceRoot, target.file, declaredAt);
    if (inside.length === 0) {
      return { ok: true, output: `No references to ${name} (${declared}) besides its declaration.`, summary: `No references to ${name}` };
    }
    const byFile = new Map<string, FileLocation[]>();
    for (const r of inside) byFile.set(r.file, [...(byFile.get(r.file) ?? []), r]);
    const sections: string[] = [];
    let listed = 0;
    for (const [file, locations] of [...byFile].sort(([a], [b]) => a.localeCompare(b))) {
      const [symbols, doc] = await Promise.all([port.documentSymbols(file), port.readDocument(file)]);
      const source = new SourceText(doc.text);
      const lines = [`${displayPath(ctx.workspaceRoot, file)} (${locations.length})`];
      for (const r of locations.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character)) {
        if (listed++ >= MAX_REFERENCES) break;
        const { line, character } = r.range.start;
        const container = enclosingSymbol(symbols, line, character);
        const text = source.line(line).trim();
        const clipped = text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text;
        lines.push(`  ${line + 1}:${character + 1} in ${container ? container.namePath.join('.') : '(top level)'}: ${clipped}`);
      }
      sections.push(lines.join('\n'));
    }
    const skipped = refs.length - inside.length;
    const notes = [
      ...(inside.length > MAX_REFERENCES ? [`… ${inside.length - MAX_REFERENCES} more references not listed.`] : []),
      ...(skipped > 0 ? [`${skipped} more outside the workspace.`] : []),
    ];
    const count = `${inside.length} reference${inside.length === 1 ? '' : 's'} to ${name} in ${byFile.size} file${byFile.size === 1 ? '' : 's'}`;
    return {
      ok: true,
      output: `${count} (declared at ${declared}):\n\n${sections.join('\n\n')}${notes.length ? `\n\n${notes.join('\n')}` : ''}`,
      summary: `${count}: ${[...byFile.keys()].slice(0, 3).map((f) => displayPath(ctx.workspaceRoot, f)).join(', ')}`,
    };
  },
};

/** The one symbol meant: in file_path when given, else the only (or only exact) match in the workspace. */
async function locateTarget(ctx: ToolExecutionContext, namePath: string, filePath: string | undefined): Promise<SymbolMatch> {
  const port = symbolPort(ctx);
  if (filePath) return resolveSymbolInFile(ctx, port, resolveInWorkspace(ctx.workspaceRoot, filePath), namePath);
  const { matches } = await findSymbols(ctx, port, namePattern(namePath));
  const exact = matches.filter((m) => m.match === 'exact');
  if (matches.length === 1) return matches[0]!;
  if (exact.length === 1) return exact[0]!;
  if (matches.length === 0) throw new ToolError('not_found', `No symbol matches ${namePath}. Find it first with find_symbol.`);
  const options = (exact.length > 1 ? exact : matches).slice(0, 10).map((m) => `${m.namePath.join('.')} (${where(ctx.workspaceRoot, m.file, m.node.selectionRange.start)})`);
  throw new ToolError('other', `${namePath} matches ${matches.length} symbols: ${options.join(', ')}. Give the full name path, and file_path when names repeat across files.`);
}
