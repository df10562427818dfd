import type { SyntaxNode } from './syntax-node';

/**
 * The text of one shell word as the command receives it, without expanding anything: quotes
 * removed, backslash escapes resolved, `$'…'` decoded (so `$'\x72m'` reads `rm`); parameter
 * expansions, arithmetic and substitutions stay as written (`$HOME`, `$(date)`).
 */
export function wordText(node: SyntaxNode, source: string): string {
  const raw = source.slice(node.start, node.end);
  switch (node.type) {
    case 'word':
      return unescapeUnquoted(raw);
    case 'raw_string':
      return raw.slice(1, raw.endsWith("'") && raw.length > 1 ? -1 : undefined);
    case 'ansi_c_string':
      return decodeAnsiC(raw.slice(2, raw.endsWith("'") && raw.length > 2 ? -1 : undefined));
    case 'string':
    case 'translated_string':
      return doubleQuoted(node, source);
    case 'concatenation':
      return node.children.map((c) => wordText(c, source)).join('');
    default:
      return raw;
  }
}

/** The inside of "…": escapes of `$`, backtick, `"`, `\` and newline resolved, expansions as written. */
function doubleQuoted(node: SyntaxNode, source: string): string {
  let out = '';
  for (const child of node.children) {
    if (!child.named) continue; // the quotes, and `$` of `$"…"`
    const raw = source.slice(child.start, child.end);
    out += child.type === 'string_content' ? raw.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c)) : raw;
  }
  return out;
}

function unescapeUnquoted(raw: string): string {
  if (!raw.includes('\\')) return raw;
  return raw.replace(/\\(\n|[\s\S])?/g, (_m, c: string | undefined) => (c === undefined || c === '\n' ? '' : c));
}

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };

/** Decodes `$'…'` escapes. */
export function decodeAnsiC(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c[\s\S]|[\s\S])/g, (_m, e: string) => {
    if (/^[xuU]/.test(e)) {
      const code = parseInt(e.slice(1), 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
    }
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8) & 0xff);
    if (e.startsWith('c')) return String.fromCharCode(e.charCodeAt(1) & 31);
    return SIMPLE_ESCAPES[e] ?? `\\${e}`;
  });
}
