import { stat } from 'node:fs/promises';
import { sep } from 'node:path';
import * as z from 'zod';
import { ToolError, type Tool, type ToolResult } from './tool';
import { displayPath, resolveInWorkspace } from '../files/workspace-path';
import { searchAst } from './search/ast-search';
import { formatOutcome } from './search/format';
import { DEFAULT_CONTEXT_LINES, MAX_CONTEXT_LINES, MAX_RESULTS } from './search/limits';
import type { CaseMode } from './search/ripgrep';
import { secretExcludes } from './search/secret-excludes';
import { searchText, type SearchTarget } from './search/text-search';

const required = (name: string, what: string) => ({
  error: (issue: { input: unknown }) => (issue.input === undefined ? `${name} is required: ${what}` : `${name} must be a string: ${what}`),
});

const schema = z.lazy(() => z.object({
  pattern: z
    .string(required('pattern', 'the regular expression (type "text") or ast-grep pattern (type "ast") to search for'))
    .min(1, 'pattern must not be empty')
    .describe('Regex (text) or ast-grep pattern (ast).'),
  path: z.string().optional().describe('File or folder (default: the workspace).'),
  type: z.enum(['text', 'ast']).optional().describe('Default text.'),
  lang: z
    .string()
    .optional()
    .describe('ast only, e.g. python; inferred from a file path or glob.'),
  glob: z.string().optional().describe('Only matching files, e.g. *.ts, src/**/*.test.ts; a leading ! excludes.'),
  context_lines: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(`text only: lines around each match (default ${DEFAULT_CONTEXT_LINES}, max ${MAX_CONTEXT_LINES}).`),
  case_sensitive: z.boolean().optional().describe('text only; default: smart case.'),
  max_results: z.number().int().min(1).optional().describe(`Default and max ${MAX_RESULTS}.`),
}));

export const searchTool: Tool<typeof schema> = {
  name: 'search',
  category: 'search',
  readOnly: true,
  schema,
  async run(args, ctx): Promise<ToolResult> {
    const target = await resolveTarget(ctx.workspaceRoot, args.path);
    const where = target.rel === '' ? 'the workspace' : target.rel;
    const glob = args.glob?.trim() ? args.glob.trim() : undefined;
    const maxResults = Math.min(args.max_results ?? MAX_RESULTS, MAX_RESULTS);

    if (args.type === 'ast') {
      const { outcome, language, filesSearched } = await searchAst({
        workspaceRoot: ctx.workspaceRoot,
        target,
        pattern: args.pattern,
        lang: args.lang,
        glob,
        maxResults,
        host: ctx.host,
        signal: ctx.signal,
      });
      return formatOutcome(outcome, {
        query: `ast pattern ${JSON.stringify(args.pattern)} (${language.label})`,
        where,
        maxResults,
        noMatchHint:
          `Searched ${filesSearched} ${language.label} file${filesSearched === 1 ? '' : 's'}. ` +
          'An ast pattern matches syntax, not text: write it as the code would appear (e.g. "$OBJ.method($$$ARGS)"), or use type "text".',
      });
    }

    const caseMode: CaseMode = args.case_sensitive === undefined ? 'smart' : args.case_sensitive ? 'sensitive' : 'insensitive';
    const { outcome, engine } = await searchText({
      workspaceRoot: ctx.workspaceRoot,
      target,
      pattern: args.pattern,
      glob,
      contextLines: Math.min(args.context_lines ?? DEFAULT_CONTEXT_LINES, MAX_CONTEXT_LINES),
      caseMode,
      maxResults,
      host: ctx.host,
      signal: ctx.signal,
    });
    const caseNote = {
      smart: 'Smart case: matching ignores case only when the pattern is all lower-case.',
      sensitive: 'Matching was case-sensitive.',
      insensitive: 'Matching ignored case.',
    }[caseMode];
    return formatOutcome(outcome, {
      query: `/${args.pattern}/`,
      where,
      maxResults,
      noMatchHint: `${caseNote} Hidden files, binary files and files ignored by .gitignore are not searched.`,
      summaryNote: engine === 'builtin' ? '(built-in search, no ripgrep)' : undefined,
    });
  },
};

async function resolveTarget(workspaceRoot: string, path: string | undefined): Promise<SearchTarget> {
  const absolute = resolveInWorkspace(workspaceRoot, path?.trim() ? path.trim() : '.');
  const rel = displayPath(workspaceRoot, absolute);
  const info = await stat(absolute).catch(() => undefined);
  if (!info) throw new ToolError('not_found', `${rel} does not exist. Check the path with list_files, or search the whole workspace by leaving path out.`);
  // The resolver refused a path that is, or leads to, a place outside the workspace or a secret; rg follows no link while it walks.
  return { rel: rel === '.' ? '' : rel.split(sep).join('/'), isFile: !info.isDirectory(), exclude: secretExcludes(workspaceRoot) };
}
