import type { NapiConfig, SgNode } from '@ast-grep/napi';
import type { AstGrepModule, AstLanguage, AstParser } from '../../syntax/ast-langs';

export type AstMatcher = string | NapiConfig;

export type CompiledPattern =
  | {
      ok: true;
      matcher: AstMatcher;
      /** Set when the pattern does not parse cleanly: such a pattern may still match (a Python
       *  `def $F($$$ARGS)` has no body), so it is run, and only an empty result makes it an error. */
      parseError?: string;
    }
  | { ok: false; reason: string };

/**
 * Turns an ast-grep pattern (`console.log($A)`, `def $F($$$ARGS)`) into a matcher for one parser,
 * or says why it cannot be one. tree-sitter parses anything: a pattern whose parse has an ERROR
 * node (`foo(`) is flagged with `parseError`; ast-grep itself refuses some (several top-level
 * nodes), which makes them invalid outright. For
 * languages with a pattern context, a pattern is also tried inside a function body and both
 * readings match (a Go `fmt.Println($A)` is a type conversion at the top level, a call in a body).
 */
export function compilePattern(napi: AstGrepModule, language: AstLanguage, parser: AstParser, pattern: string): CompiledPattern {
  const source = pattern.trim();
  if (source === '') return { ok: false, reason: 'the pattern is empty' };
  const probe = parser.expando && parser.expando !== '$' ? source.replace(/\$/g, parser.expando) : source;

  const plainRoot = napi.parse(parser.lang, probe).root();
  const plainError = firstError(plainRoot);
  const plainKinds = new Set(nodesSpanning(plainRoot, probe, 0).map((n) => n.kind() as string));

  let contextRule: NapiConfig['rule'] | undefined;
  if (language.context) {
    const { prefix, suffix } = language.context;
    const root = napi.parse(parser.lang, prefix + probe + suffix).root();
    if (firstError(root) === undefined) {
      const spanning = nodesSpanning(root, probe, prefix.length).filter((n) => n.isNamed());
      const selector = spanning[spanning.length - 1]?.kind() as string | undefined;
      if (selector && (plainError !== undefined || !plainKinds.has(selector))) {
        contextRule = { pattern: { context: prefix + source + suffix, selector } };
      }
    }
  }

  const matcher: AstMatcher = !contextRule ? source : plainError !== undefined ? { rule: contextRule } : { rule: { any: [{ pattern: source }, contextRule] } };
  try {
    napi.parse(parser.lang, probe).root().findAll(matcher);
  } catch (err) {
    return { ok: false, reason: ((err as Error).message ?? String(err)).split('\n')[0]! };
  }
  if (plainError !== undefined && !contextRule) {
    const near = plainError.trim() === '' ? '' : ` near ${JSON.stringify(plainError.replaceAll(parser.expando ?? '$', '$').slice(0, 60))}`;
    return { ok: true, matcher, parseError: `it is not valid ${language.label} code (it does not parse${near})` };
  }
  return { ok: true, matcher };
}

/** The text of the first ERROR node, or undefined when the tree parsed cleanly. */
function firstError(node: SgNode): string | undefined {
  if ((node.kind() as string) === 'ERROR') return node.text();
  for (const child of node.children()) {
    const found = firstError(child);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Nodes covering exactly `text` starting at `offset`, outermost first. */
function nodesSpanning(node: SgNode, text: string, offset: number, out: SgNode[] = []): SgNode[] {
  const range = node.range();
  if (range.start.index > offset) return out;
  if (range.start.index === offset && node.text() === text) out.push(node);
  for (const child of node.children()) {
    const r = child.range();
    if (r.start.index <= offset && r.end.index >= offset) nodesSpanning(child, text, offset, out);
  }
  return out;
}
