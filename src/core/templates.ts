import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Everything the model reads lives in `templates/` as markdown, shipped beside the bundle.
 * The folder is found by walking up from this file, so the same code works from `dist/`
 * (extension, CLI) and from `out/src/core/` (tests).
 */
export function templatesDir(): string {
  const override = process.env.OPENDEV_TEMPLATES_DIR;
  if (override) return override;
  // Found once: every template read asks, and the walk is two file checks per folder.
  found ??= findTemplatesDir();
  return found;
}

let found: string | undefined;

function findTemplatesDir(): string {
  let dir = __dirname;
  for (;;) {
    const candidate = join(dir, 'templates');
    if (existsSync(join(candidate, 'system')) && existsSync(join(dir, 'package.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`OpenDev templates folder not found above ${__dirname}`);
    dir = parent;
  }
}

const cache = new Map<string, string>();

/** Reads `templates/<relativePath>`; undefined when the file does not exist (callers degrade). */
export function loadTemplate(relativePath: string): string | undefined {
  const file = join(templatesDir(), relativePath);
  const cached = cache.get(file);
  if (cached !== undefined) return cached;
  if (!existsSync(file)) return undefined;
  const text = stripFrontmatter(readFileSync(file, 'utf8')).trim();
  cache.set(file, text);
  return text;
}

/** Replaces `${NAME}` with `vars[NAME]`; unknown names stay visible rather than silently vanishing. */
export function renderTemplate(text: string, vars: Record<string, string>): string {
  return text.replace(/\$\{([A-Za-z0-9_.]+)\}/g, (whole, name: string) => vars[name] ?? whole);
}

const sectionCache = new Map<string, Map<string, string>>();

/**
 * A template file of short named sections, each headed `--- name ---` (reminders, compaction
 * placeholders). A missing file is an empty map: callers degrade, they do not fail.
 */
export function loadTemplateSections(relativePath: string): ReadonlyMap<string, string> {
  // Keyed by the full path, like loadTemplate, so an OPENDEV_TEMPLATES_DIR override is honoured.
  const key = join(templatesDir(), relativePath);
  const cached = sectionCache.get(key);
  if (cached) return cached;
  const sections = new Map<string, string>();
  let name: string | undefined;
  let lines: string[] = [];
  const flush = () => {
    if (name) sections.set(name, lines.join('\n').trim());
  };
  for (const line of (loadTemplate(relativePath) ?? '').split('\n')) {
    const header = /^--- ([a-z0-9_]+) ---$/.exec(line.trim());
    if (header) {
      flush();
      name = header[1];
      lines = [];
    } else lines.push(line);
  }
  flush();
  sectionCache.set(key, sections);
  return sections;
}

function stripFrontmatter(text: string): string {
  return text.startsWith('---\n') ? text.replace(/^---\n[\s\S]*?\n---\n/, '') : text;
}
