import type { DocumentSymbolNode } from '../../symbol-port';

/** A symbol of a file's tree with the names of its ancestors: `Shape.area` is `['Shape', 'area']`. */
export interface NamedSymbol {
  node: DocumentSymbolNode;
  namePath: string[];
}

/**
 * What find_symbol and the editing tools are given: `Class.method` (also `Class/method`,
 * `Class::method`), a bare `method`, or a wildcard (`My*`, `Shape.get?`). The segments match the
 * last segments of a symbol's name path; a match of the whole path is exact.
 */
export interface NamePattern {
  text: string;
  segments: string[];
  /** The longest run of plain characters, for the providers' own search ("My*Service" → "Service"). */
  literal: string;
}

export type NameMatch = 'exact' | 'suffix';

const SEPARATOR = /\.|\/|::/;

/** Splits a name path the way symbols are joined; a symbol named `a.b` counts as two segments. */
export function splitNamePath(text: string): string[] {
  return text.split(SEPARATOR).filter((s) => s !== '');
}

export function parseNamePattern(text: string): NamePattern | { error: string } {
  const trimmed = text.trim();
  const segments = splitNamePath(trimmed);
  if (segments.length === 0) return { error: `"${text}" holds no name: give a symbol name such as Shape.area, area or Shape*` };
  if (segments.some((s) => /\s/.test(s))) return { error: `"${text}" contains spaces: a name path is names joined by dots, such as Shape.area` };
  const runs = (s: string) => s.split(/[*?]/).filter((r) => r !== '');
  const longest = (rs: string[]) => rs.reduce((a, b) => (b.length > a.length ? b : a), '');
  const literal = longest(runs(segments.at(-1)!)) || longest(segments.flatMap(runs));
  if (!literal) return { error: `"${text}" is only wildcards: give at least part of a name, such as Shape* or *Service` };
  return { text: trimmed, segments, literal };
}

/** How `namePath` matches the pattern: all of it (exact), its last segments (suffix), or not at all. */
export function matchNamePath(pattern: NamePattern, namePath: readonly string[]): NameMatch | undefined {
  const path = namePath.flatMap(splitNamePath);
  const k = pattern.segments.length;
  if (k > path.length) return undefined;
  const offset = path.length - k;
  for (let i = 0; i < k; i++) if (!segmentMatches(pattern.segments[i]!, path[offset + i]!)) return undefined;
  return offset === 0 ? 'exact' : 'suffix';
}

function segmentMatches(pattern: string, name: string): boolean {
  if (!/[*?]/.test(pattern)) return pattern === name;
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`, 'u').test(name);
}

/** Every symbol of a tree, parents before their children. */
export function flattenSymbols(nodes: readonly DocumentSymbolNode[], parents: readonly string[] = []): NamedSymbol[] {
  const out: NamedSymbol[] = [];
  for (const node of nodes) {
    const namePath = [...parents, node.name];
    out.push({ node, namePath });
    out.push(...flattenSymbols(node.children, namePath));
  }
  return out;
}

/** The symbols of a tree that match, each with how. */
export function matchSymbols(pattern: NamePattern, nodes: readonly DocumentSymbolNode[]): (NamedSymbol & { match: NameMatch })[] {
  const out: (NamedSymbol & { match: NameMatch })[] = [];
  for (const symbol of flattenSymbols(nodes)) {
    const match = matchNamePath(pattern, symbol.namePath);
    if (match) out.push({ ...symbol, match });
  }
  return out;
}

/** The innermost symbol whose range holds the position (the function a reference sits in). */
export function enclosingSymbol(nodes: readonly DocumentSymbolNode[], line: number, character: number): NamedSymbol | undefined {
  let found: NamedSymbol | undefined;
  for (const symbol of flattenSymbols(nodes)) {
    const { start, end } = symbol.node.range;
    const after = line > start.line || (line === start.line && character >= start.character);
    const before = line < end.line || (line === end.line && character <= end.character);
    if (!after || !before) continue;
    // flattenSymbols lists parents first, so a later hit inside an earlier one is deeper.
    if (!found || contains(found.node, symbol.node)) found = symbol;
  }
  return found;
}

function contains(outer: DocumentSymbolNode, inner: DocumentSymbolNode): boolean {
  const a = outer.range;
  const b = inner.range;
  const startsAfter = b.start.line > a.start.line || (b.start.line === a.start.line && b.start.character >= a.start.character);
  const endsBefore = b.end.line < a.end.line || (b.end.line === a.end.line && b.end.character <= a.end.character);
  return startsAfter && endsBefore;
}
