// Plain Node and browser-safe: @vscode/l10n, given VS Code's bundle at activation (English unconfigured, as in the CLI).
import * as l10n from '@vscode/l10n';
import { formatDuration, oneLine, type DurationUnits } from '../core/process/task-format';

/**
 * What a tool call is about, said for a person: the file, the command, the pattern, the site, and
 * the counts and durations around them. The tool wordings (tool-wordings.ts) build their sentences
 * from these, so a path or a command reads the same on a card, in an approval and in a terminal.
 */

export type Args = Record<string, unknown>;

/** The call's arguments as the model sent them (JSON); anything else reads as no arguments. */
export function parseArgs(json: string): Args {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Args) : {};
  } catch {
    return {};
  }
}

/** The file a call is about, as the model named it (workspace-relative as a rule). */
export function file(a: Args): string {
  const path = typeof a.file_path === 'string' ? a.file_path : typeof a.path === 'string' ? a.path : l10n.t('a file');
  return shortPath(path);
}

export function folder(a: Args): string {
  return typeof a.path === 'string' && a.path.trim() && a.path !== '.' ? shortPath(a.path) : l10n.t('the workspace');
}

/** Long absolute paths keep their last three parts. */
function shortPath(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts.length > 3 && path.length > 50 ? `…/${parts.slice(-3).join('/')}` : path;
}

export function command(a: Args): string {
  return typeof a.command === 'string' ? clip(a.command.replace(/\s+/g, ' '), 60) : l10n.t('a command');
}

/** A symbol, a pattern or a query the call names, in backticks. */
export function quoted(value: unknown): string {
  return typeof value === 'string' && value ? `\`${clip(value, 60)}\`` : l10n.t('something');
}

export function site(value: unknown): string {
  if (typeof value !== 'string') return l10n.t('a page');
  try {
    return new URL(value).host || value;
  } catch {
    return clip(value, 60);
  }
}

/** The number a summary states ("12" from "(12 lines"), as written there (with its thousands commas). */
export function number(summary: string, pattern: RegExp): string | undefined {
  return summary.match(pattern)?.[1];
}

// Counts: the singular and the plural are separate strings, as languages form them differently.
export const lines = (n: string | undefined) => (n === undefined ? undefined : n === '1' ? l10n.t('1 line') : l10n.t('{0} lines', n));
export const files = (n: string | undefined) => (n === undefined ? undefined : n === '1' ? l10n.t('1 file') : l10n.t('{0} files', n));
export const matches = (n: string | undefined) => (n === undefined ? undefined : n === '1' ? l10n.t('1 match') : l10n.t('{0} matches', n));
export const entries = (n: string | undefined) => (n === undefined ? undefined : n === '1' ? l10n.t('1 entry') : l10n.t('{0} entries', n));
export const results = (n: string | undefined) => (n === undefined ? undefined : n === '1' ? l10n.t('1 result') : l10n.t('{0} results', n));
// The summary says "chars" whatever the number; the headline says it in words.
export const characters = (n: string | undefined) => (n === undefined ? undefined : l10n.t('{0} characters', n));

/** The core's durations (one rounding everywhere) in the display language's words. */
const UNITS: DurationUnits = {
  ms: (n) => l10n.t('{0} ms', n),
  s: (n) => l10n.t('{0} s', n),
  minS: (m, s) => l10n.t('{0} min {1} s', m, s),
  hMin: (h, m) => l10n.t('{0} h {1} min', h, m),
};

export function duration(ms: number | undefined): string | undefined {
  return ms === undefined ? undefined : formatDuration(ms, UNITS);
}

/** The parts of a headline that are known, " · " between them. */
export function join(...parts: Array<string | undefined>): string {
  return parts.filter((p): p is string => Boolean(p)).join(' · ');
}

/** One line of at most `max` characters (the core's oneLine: one implementation). */
export function clip(text: string, max: number): string {
  return oneLine(text, max);
}
