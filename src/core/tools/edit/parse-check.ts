import type { SgNode } from '@ast-grep/napi';
import { languageForFile, loadAstRuntime, parserForFile, type AstGrepModule } from '../../syntax/ast-langs';

/**
 * Larger texts are not parsed after an edit. tree-sitter takes about 100 ms of CPU for 350 KB of
 * TypeScript here, more than the whole edit; files past this are mostly generated.
 */
export const PARSE_CHECK_MAX_CHARS = 256 * 1024;

/** The lines (1-based, at most this many) a parse regression names. */
const MAX_LINES = 3;

/** Nodes that are legitimately empty in valid code (an empty `<script>`, an empty heredoc). */
const EMPTY_BY_DESIGN = new Set(['raw_text', 'heredoc_content']);

/** An edit after which a file that parsed cleanly does not. */
export interface ParseRegression {
  /** The language it was parsed as ("TypeScript", "Python"). */
  language: string;
  /** 1-based lines of the first problems, in file order. */
  lines: number[];
}

/**
 * Whether an edit broke the file's syntax, as far as tree-sitter (through ast-grep) can tell:
 * the text before parsed without a problem and the text after has one. Problems are ERROR nodes
 * and the zero-width nodes tree-sitter invents for a missing token (a `}`, a Python block).
 * Undefined for a language ast-grep does not parse, a file that already had problems (the edit
 * cannot be blamed), a text over PARSE_CHECK_MAX_CHARS, or when ast-grep cannot be loaded: the
 * check only ever adds a warning, it never fails an edit.
 */
export async function parseRegression(path: string, before: string, after: string): Promise<ParseRegression | undefined> {
  if (before.length > PARSE_CHECK_MAX_CHARS || after.length > PARSE_CHECK_MAX_CHARS) return undefined;
  const runtime = loadAstRuntime();
  if ('error' in runtime) return undefined;
  const language = languageForFile(runtime.languages, path);
  const parser = language && parserForFile(language, path);
  if (!language || !parser) return undefined;
  try {
    // The text after first: most edits leave the file valid, and then one parse is all it costs.
    const found = await problems(runtime.napi, parser.lang, after);
    if (found.length === 0) return undefined;
    if ((await problems(runtime.napi, parser.lang, before)).length > 0) return undefined;
    const lines = [...new Set(found.map((n) => n.range().start.line + 1))].sort((a, b) => a - b).slice(0, MAX_LINES);
    return { language: language.label, lines };
  } catch {
    return undefined;
  }
}

async function problems(napi: AstGrepModule, lang: string, text: string): Promise<SgNode[]> {
  if (text.trim() === '') return [];
  const root = (await napi.parseAsync(lang, text)).root();
  const errors = root.findAll({ rule: { kind: 'ERROR' } });
  const missing = root.findAll({ rule: { regex: '^$' } }).filter((n) => !EMPTY_BY_DESIGN.has(n.kind() as string));
  return [...errors, ...missing];
}
