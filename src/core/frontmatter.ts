/**
 * YAML frontmatter, the header of the markdown files users and templates write (custom agents,
 * skills, prompt sections): a `---` line, YAML (`key: value` lines), a closing `---` line, then the
 * body. Each caller checks the fields it reads with zod (`asText` for the ones that want text).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import * as z from 'zod';
import { readYamlHeader, type HeaderValues } from './frontmatter-yaml';

/** The header and body of a markdown file; an error (for the user) when the header is missing or unclosed. */
export function splitFrontmatter(text: string): { header: string; body: string } | { error: string } {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  if (!normalized.startsWith('---\n')) return { error: 'missing YAML frontmatter (the file must start with a --- line, then the fields, then ---)' };
  const match = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)([\s\S]*)$/.exec(normalized);
  if (!match) return { error: 'the YAML frontmatter is not closed by a --- line' };
  return { header: match[1]!, body: match[2]! };
}

/**
 * The header's fields as YAML reads them: strings, numbers, booleans, null (`key:` with no value),
 * lists and maps; or an error naming the line of the header and what is wrong.
 */
export function parseFrontmatter(header: string): { values: HeaderValues } | { error: string } {
  const known = builtHeaders()?.get(header);
  return known !== undefined ? { values: JSON.parse(known) as HeaderValues } : readYamlHeader(header);
}

/**
 * A field read as text: YAML's other scalars as they were written (`model: 4` is "4", `x: true`
 * "true", `x:` with no value ""), so users need not quote them; lists and maps are left for `schema` to refuse.
 */
export function asText<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === null ? '' : typeof value === 'number' || typeof value === 'boolean' ? String(value) : value), schema);
}

/**
 * The headers of templates/ as YAML reads them, read at build time (esbuild.config.mjs writes this
 * file beside the bundles): every run reads some 30 of them before its first request, and the yaml
 * package would add a tenth to `opendev -p`'s time to it. A header is looked up by its exact text,
 * so an edited template or a user's file is read by yaml as any other. Without the file (the tests'
 * per-file build, `--watch`) every header is.
 */
export const TEMPLATE_FRONTMATTER_FILE = 'template-frontmatter.json';

let built: Map<string, string> | null | undefined;

/** Header text → its values as JSON; undefined when the build wrote no file. */
function builtHeaders(): Map<string, string> | undefined {
  if (built === undefined) {
    const file = join(__dirname, TEMPLATE_FRONTMATTER_FILE);
    const entries = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : undefined;
    built = entries ? new Map(Object.entries(entries).map(([header, values]) => [header, JSON.stringify(values)])) : null;
  }
  return built ?? undefined;
}

/** Every header of the markdown files below `dir` that yaml reads without error (and JSON keeps as is), by its text. */
export function deriveTemplateFrontmatter(dir: string): Record<string, HeaderValues> {
  const headers: Record<string, HeaderValues> = {};
  const visit = (folder: string): void => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) visit(path);
      else if (name.endsWith('.md')) {
        const parts = splitFrontmatter(readFileSync(path, 'utf8'));
        if ('error' in parts) continue;
        const parsed = readYamlHeader(parts.header);
        if ('values' in parsed && isDeepStrictEqual(JSON.parse(JSON.stringify(parsed.values)), parsed.values)) headers[parts.header] = parsed.values;
      }
    }
  };
  visit(dir);
  return headers;
}
