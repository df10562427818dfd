/**
 * YAML frontmatter, the header of the markdown files users and templates write (custom agents,
 * skills, prompt sections): a `---` line, `key: value` lines, a closing `---` line, then the body.
 */

export type YamlValue = string | string[];

export interface FrontmatterOptions {
  /**
   * Keys holding a nested map (`metadata:` then indented `key: value` lines, as Claude Code's
   * SKILL.md files may have) are left out of the values instead of failing the whole header.
   */
  skipNestedMaps?: boolean;
}

/** The header and body of a markdown file; an error (for the user) when the header is missing or unclosed. */
export function splitFrontmatter(text: string): { header: string; body: string } | { error: string } {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  if (!normalized.startsWith('---\n')) return { error: 'missing YAML frontmatter (the file must start with a --- line, then the fields, then ---)' };
  const match = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)([\s\S]*)$/.exec(normalized);
  if (!match) return { error: 'the YAML frontmatter is not closed by a --- line' };
  return { header: match[1]!, body: match[2]! };
}

/**
 * The YAML subset these files use: `key: value` (plain, 'single' or "double" quoted), inline lists
 * `[a, b]`, block lists (`key:` then `- item` lines), block scalars (`key: |` or `>`), `#` comments.
 */
export function parseFrontmatter(text: string, options: FrontmatterOptions = {}): { values: Record<string, YamlValue> } | { error: string } {
  const values: Record<string, YamlValue> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const kv = /^([A-Za-z_][A-Za-z0-9_-]*)\s*:(?:\s+(.*))?$/.exec(line.replace(/\s+$/, ''));
    if (!kv) return { error: `line ${i + 1} is not "key: value": ${line.trim().slice(0, 60)}` };
    const key = kv[1]!;
    const rest = (kv[2] ?? '').trim();
    if (key in values) return { error: `line ${i + 1}: "${key}" is set twice` };

    if (rest === '' || rest === '|' || rest === '>' || rest === '|-' || rest === '>-') {
      const block: string[] = [];
      while (i + 1 < lines.length && (lines[i + 1]!.trim() === '' || /^\s/.test(lines[i + 1]!))) block.push(lines[++i]!);
      while (block.length > 0 && block[block.length - 1]!.trim() === '') block.pop();
      if (rest === '') {
        const items = block.filter((l) => l.trim() !== '');
        if (items.length > 0 && items.every((l) => /^\s*-\s/.test(l) || /^\s*-$/.test(l))) {
          values[key] = items.map((l) => unquote(l.replace(/^\s*-\s?/, '').trim()));
        } else if (items.length > 0) {
          if (options.skipNestedMaps) continue;
          return { error: `"${key}" is followed by indented lines that are not "- item" list entries` };
        } else values[key] = '';
      } else {
        const indent = Math.min(...block.filter((l) => l.trim() !== '').map((l) => /^\s*/.exec(l)![0].length));
        const dedented = block.map((l) => l.slice(Number.isFinite(indent) ? indent : 0));
        values[key] = rest.startsWith('|') ? dedented.join('\n') : dedented.map((l) => l.trim()).join(' ').replace(/\s+/g, ' ').trim();
      }
      continue;
    }
    if (rest.startsWith('[')) {
      if (!rest.endsWith(']')) return { error: `line ${i + 1}: the list for "${key}" is not closed with ]` };
      const inner = rest.slice(1, -1).trim();
      values[key] = inner === '' ? [] : inner.split(',').map((s) => unquote(s.trim()));
      continue;
    }
    const quote = rest[0];
    if ((quote === '"' || quote === "'") && !(rest.length > 1 && rest.endsWith(quote))) {
      return { error: `line ${i + 1}: unterminated quoted value for "${key}"` };
    }
    values[key] = unquote(stripComment(rest));
  }
  return { values };
}

function stripComment(value: string): string {
  if (value.startsWith('"') || value.startsWith("'")) return value;
  return value.replace(/\s+#.*$/, '');
}

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return value.slice(1, -1).replace(/\\"/g, '"').replace(/\\n/g, '\n').replace(/\\\\/g, '\\');
  }
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1).replace(/''/g, "'");
  return value;
}
