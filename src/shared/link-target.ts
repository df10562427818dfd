import * as z from 'zod/mini';

/**
 * Where a link in the chat leads: a web address (opened by VS Code's openExternal) or a file of the
 * workspace, at a line. The view classifies what it draws as a link with `linkTarget`; the extension
 * parses the message with `LinkTargetSchema` and checks again (the path stays inside the workspace,
 * only http, https and mailto go out), so the view's judgement is never trusted on its own.
 */
export const EXTERNAL_SCHEMES = ['http:', 'https:', 'mailto:'] as const;

const MAX_URL = 2_048;
const MAX_PATH = 1_024;
const MAX_LINE = 10_000_000;

export const LinkTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('url'), url: z.string().check(z.minLength(1), z.maxLength(MAX_URL)) }),
  z.object({
    kind: z.literal('file'),
    path: z.string().check(z.minLength(1), z.maxLength(MAX_PATH)),
    line: z.optional(z.int().check(z.positive(), z.maximum(MAX_LINE))),
    column: z.optional(z.int().check(z.positive(), z.maximum(MAX_LINE))),
  }),
]);
export type LinkTarget = z.infer<typeof LinkTargetSchema>;

/** A web address with one of the schemes the chat opens outside, as written; else undefined. */
export function externalUrl(href: string): string | undefined {
  if (href.length > MAX_URL) return undefined;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  return (EXTERNAL_SCHEMES as readonly string[]).includes(url.protocol) ? url.href : undefined;
}

/**
 * `src/app.ts:12`, `src/app.ts:12:5`, `src/app.ts#L12`, `./src/app.ts`, `src/app.ts (line 12)` is not one.
 * A file path has no scheme, no spaces and no query; the line and column are optional.
 */
const FILE = /^(?!\w{2,}:)([^\s?#:<>"|*]+?)(?::(\d+)(?::(\d+))?|#L(\d+)(?:C(\d+))?)?$/;

/** A markdown link's destination as a target: a web address, a workspace file, or neither (drawn as text). */
export function linkTarget(href: string): LinkTarget | undefined {
  const trimmed = href.trim();
  // A scheme (`https:`, `javascript:`) but not a path with a line (`app.ts:12`).
  if (/^[a-z][\w+.-]*:(?!\d)/i.test(trimmed)) {
    const url = externalUrl(trimmed);
    return url ? { kind: 'url', url } : undefined;
  }
  return fileTarget(safeDecode(trimmed));
}

/** `path[:line[:column]]` or `path#Lline` as a file target (no scheme, no spaces). */
export function fileTarget(text: string): LinkTarget | undefined {
  if (text.length === 0 || text.length > MAX_PATH || text.startsWith('//')) return undefined;
  const match = FILE.exec(text);
  if (!match) return undefined;
  const line = Number(match[2] ?? match[4]) || undefined;
  const column = Number(match[3] ?? match[5]) || undefined;
  return { kind: 'file', path: match[1]!, ...(line ? { line } : {}), ...(line && column ? { column } : {}) };
}

/**
 * Whether inline code names a workspace file, so the view makes it a link: it has a folder
 * (`src/app.ts`) or a line (`app.ts:12`) and ends in a file extension. `foo.bar()` or a bare
 * `README.md` stay code (a bare name is too often a method, a package or a host).
 */
export function codePathTarget(code: string): LinkTarget | undefined {
  if (!/^(?:\.{1,2}\/|\/)?[\w@.+-]+(?:\/[\w@.+-]+)*\.[A-Za-z][\w]{0,9}(?::\d+(?::\d+)?|#L\d+)?$/.test(code)) return undefined;
  const target = fileTarget(code);
  if (!target || target.kind !== 'file') return undefined;
  return target.path.includes('/') || target.line ? target : undefined;
}

function safeDecode(text: string): string {
  try {
    return decodeURI(text);
  } catch {
    return text;
  }
}
