import * as z from 'zod';
import { SourceText } from './symbols/source-text';
import { findSymbols, namePattern, symbolPort, where, type SymbolMatch } from './symbols/symbol-lookup';
import type { Tool } from './tool';

const MAX_MATCHES = 50;
const PREVIEW_CHARS = 200;
/** With include_body: the most source text one call returns, all matches together. */
const MAX_BODY_CHARS = 20_000;

const schema = z.lazy(() => z.object({
  name_path: z.string().min(1).describe('e.g. Shape.area, area, Shape*'),
  path: z.string().optional().describe('Only this file or folder.'),
  include_body: z.boolean().optional().describe('Full source of each match.'),
}));

/**
 * Symbols by name path, through the editor's language servers: kind, location, name path and
 * the start of the source (or all of it) for every match, exact name paths first.
 */
export const findSymbolTool: Tool<typeof schema> = {
  name: 'find_symbol',
  category: 'symbol',
  readOnly: true,
  schema,
  async run(args, ctx) {
    const port = symbolPort(ctx);
    const pattern = namePattern(args.name_path);
    const { matches, unexamined } = await findSymbols(ctx, port, pattern, args.path);
    const partial = unexamined > 0 ? ` ${unexamined} more files that may hold matches were not examined; narrow with path.` : '';
    if (matches.length === 0) {
      return {
        ok: true,
        output: `No symbol matches ${pattern.text}${args.path ? ` in ${args.path}` : ''}.${partial} Try a shorter name path (just the last name), a wildcard (${pattern.literal}*), or search for the text.`,
        summary: `No symbol matches ${pattern.text}`,
      };
    }
    const texts = new Map<string, SourceText>();
    const textOf = async (file: string) => texts.get(file) ?? texts.set(file, new SourceText((await port.readDocument(file)).text)).get(file)!;
    let budget = MAX_BODY_CHARS;
    const shown: string[] = [];
    for (const m of matches.slice(0, MAX_MATCHES)) {
      const source = await textOf(m.file);
      const text = source.text.slice(source.offsetAt(m.node.range.start), source.offsetAt(m.node.range.end));
      let body = text;
      if (!args.include_body) body = text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
      else if (text.length > budget) body = `${text.slice(0, Math.max(budget, PREVIEW_CHARS))}… [cut: ${text.length} chars; read_file shows the rest]`;
      budget = Math.max(0, budget - body.length);
      shown.push(`${heading(ctx.workspaceRoot, m)}\n${indentBlock(body, source.indentOf(m.node.range.start.line))}`);
    }
    const more = (matches.length > MAX_MATCHES ? `\n… ${matches.length - MAX_MATCHES} more; narrow name_path or path.` : '') + (partial ? `\n${partial.trim()}` : '');
    const count = `${matches.length} symbol${matches.length === 1 ? '' : 's'}`;
    return {
      ok: true,
      output: `${count} match ${pattern.text}:\n\n${shown.join('\n\n')}${more}`,
      summary: `${count} match ${pattern.text}: ${matches.slice(0, 3).map((m) => m.namePath.join('.')).join(', ')}${matches.length > 3 ? ', …' : ''}`,
    };
  },
};

function heading(workspaceRoot: string, m: SymbolMatch): string {
  return `${where(workspaceRoot, m.file, m.node.selectionRange.start)} ${m.node.kind} ${m.namePath.join('.')}`;
}

/** The source under its heading, four spaces in, its own first-line indentation removed from every line. */
function indentBlock(text: string, firstIndent: string): string {
  return text
    .split(/\r\n|\n|\r/)
    .map((line) => `    ${line.startsWith(firstIndent) ? line.slice(firstIndent.length) : line.trimStart()}`)
    .join('\n');
}
