/**
 * A tool card's header in words a person reads ("Read math.ts · 12 lines", "Ran npm test · exit 0 ·
 * 3.2 s", "Edited src/a.ts · +3 −1"), made from the call's name and arguments and how it ended. The
 * raw name, arguments and output stay one click away on the card; nothing here is meant for the
 * model. Pure: the chat's turn UI calls it, the webview only renders the string.
 */
// Plain Node (unit-tested without VS Code): @vscode/l10n, configured with VS Code's bundle at activation.
import * as l10n from '@vscode/l10n';

export interface ToolCardFacts {
  name: string;
  /** The call's arguments as the model sent them (JSON). */
  args: string;
  /** Absent while the call runs. */
  ended?: {
    ok: boolean;
    /** The tool's one-line summary for the UI (`✓ …` / `✗ kind: …`). */
    summary: string;
    /** How long the call took, measured by the front end (unknown for a resumed session's calls). */
    durationMs?: number;
  };
}

type Args = Record<string, unknown>;

/** What a call does, in the present ("Reading") and the past ("Read"), and the noun it is about. */
interface Wording {
  running(a: Args): string;
  done(a: Args, summary: string, durationMs: number | undefined): string;
  /** The failed call's subject: "Couldn't read math.ts". */
  failed(a: Args): string;
}

// Each wording is a function, so l10n.t runs when a card is drawn (after activation configured the bundle).
const WORDINGS: Record<string, Wording> = {
  read_file: {
    running: (a) => l10n.t('Reading {0}…', file(a)),
    done: (a, s) => join(l10n.t('Read {0}', file(a)), lines(number(s, /\(([\d,]+) lines?/))),
    failed: (a) => l10n.t("Couldn't read {0}", file(a)),
  },
  run_command: {
    running: (a) => (a.background === true ? l10n.t('Starting {0}…', command(a)) : l10n.t('Running {0}…', command(a))),
    done: (a, s, ms) =>
      /background task/.test(s) ? l10n.t('Started {0} in the background', command(a)) : join(l10n.t('Ran {0}', command(a)), exitOf(s, true), duration(ms)),
    failed: (a) => l10n.t('Ran {0}', command(a)),
  },
  edit_file: {
    running: (a) => l10n.t('Editing {0}…', file(a)),
    done: (a, s) => join(l10n.t('Edited {0}', file(a)), s.match(/\(([+−-]\d+ [−-]\d+)/)?.[1], rejectedOf(s)),
    failed: (a) => l10n.t("Couldn't edit {0}", file(a)),
  },
  write_file: {
    running: (a) => l10n.t('Writing {0}…', file(a)),
    done: (a, s) => join(/Created/.test(s) ? l10n.t('Created {0}', file(a)) : l10n.t('Wrote {0}', file(a)), lines(number(s, /\(([\d,]+) lines?/))),
    failed: (a) => l10n.t("Couldn't write {0}", file(a)),
  },
  search: {
    running: (a) => l10n.t('Searching for {0}…', quoted(a.pattern)),
    done: (a, s) => join(l10n.t('Searched for {0}', quoted(a.pattern)), /✓ 0 matches/.test(s) ? l10n.t('no matches') : files(number(s, /in ([\d,]+) files?/))),
    failed: (a) => l10n.t("Couldn't search for {0}", quoted(a.pattern)),
  },
  list_files: {
    running: (a) => l10n.t('Listing {0}…', folder(a)),
    done: (a, s) =>
      typeof a.pattern === 'string'
        ? join(l10n.t('Looked for {0} in {1}', quoted(a.pattern), folder(a)), matches(number(s, /([\d,]+) match/)))
        : join(l10n.t('Listed {0}', folder(a)), entries(number(s, /\(([\d,]+) entr/))),
    failed: (a) => l10n.t("Couldn't list {0}", folder(a)),
  },
  fetch_url: {
    running: (a) => l10n.t('Fetching {0}…', site(a.url)),
    done: (a, s) => join(l10n.t('Fetched {0}', site(a.url)), characters(number(s, /([\d,]+) chars/))),
    failed: (a) => l10n.t("Couldn't fetch {0}", site(a.url)),
  },
  web_search: {
    running: (a) => l10n.t('Searching the web for {0}…', quoted(a.query)),
    done: (a, s) => join(l10n.t('Searched the web for {0}', quoted(a.query)), /no results/.test(s) ? l10n.t('no results') : results(number(s, /([\d,]+) results?/))),
    failed: (a) => l10n.t("Couldn't search the web for {0}", quoted(a.query)),
  },
  write_todos: simple(() => l10n.t('Updating the todo list…'), () => l10n.t('Updated the todo list'), () => l10n.t("Couldn't update the todo list")),
  update_todo: simple(() => l10n.t('Updating a todo…'), () => l10n.t('Updated a todo'), () => l10n.t("Couldn't update a todo")),
  complete_todo: simple(() => l10n.t('Completing a todo…'), () => l10n.t('Completed a todo'), () => l10n.t("Couldn't complete a todo")),
  list_todos: simple(() => l10n.t('Reading the todo list…'), () => l10n.t('Read the todo list'), () => l10n.t("Couldn't read the todo list")),
  task_complete: simple(() => l10n.t('Finishing…'), () => l10n.t('Finished the task'), () => l10n.t("Couldn't finish")),
  spawn_subagent: simple(() => l10n.t('Starting a helper agent…'), () => l10n.t('A helper agent finished'), () => l10n.t('A helper agent failed')),
  find_symbol: {
    running: (a) => l10n.t('Finding {0}…', quoted(a.name_path ?? a.name ?? a.symbol)),
    done: (a) => l10n.t('Found {0}', quoted(a.name_path ?? a.name ?? a.symbol)),
    failed: (a) => l10n.t("Couldn't find {0}", quoted(a.name_path ?? a.name ?? a.symbol)),
  },
};

/** The card's header: what is happening, what happened, or that it failed and why (one line). */
export function toolHeadline(facts: ToolCardFacts): string {
  const a = parseArgs(facts.args);
  const wording = WORDINGS[facts.name] ?? generic(facts.name);
  if (!facts.ended) return clip(wording.running(a), 200);
  const { ok, summary, durationMs } = facts.ended;
  if (ok) return clip(wording.done(a, summary, durationMs), 200);
  // run_command's own failure (a non-zero exit) is a result, not an error: say the exit and time.
  const exit = facts.name === 'run_command' ? exitOf(summary, false) : undefined;
  if (exit) return clip(join(wording.failed(a), exit, duration(durationMs)), 200);
  return clip(`${wording.failed(a)} — ${why(summary)}`, 200);
}

/** "✗ not_found: math.ts does not exist. Check the path…" → "math.ts does not exist". */
function why(summary: string): string {
  const text = summary.replace(/^✗\s*/, '').replace(/^(permission|rejected|not_found|edit_mismatch|syntax|rate_limit|timeout|too_large|other):\s*/, '');
  const first = text.split(/(?<=[.!?])\s/)[0] ?? text;
  return first.replace(/\.$/, '') || l10n.t('it failed');
}

/** "1 of 2 changes rejected": an edit the user decided change by change. */
function rejectedOf(summary: string): string | undefined {
  const m = summary.match(/rejected (\d+) of (\d+) hunks/);
  return m ? l10n.t('{0} of {1} changes rejected', m[1]!, m[2]!) : undefined;
}

/** "exit 0", "exit 2", "killed by SIGTERM": from the summary (`✗ exit 2: …`); a success with no code said is exit 0. */
function exitOf(summary: string, ok: boolean): string | undefined {
  const code = summary.match(/\bexit (\d+)/)?.[1];
  if (code) return l10n.t('exit {0}', code);
  const signal = summary.match(/\b(SIG[A-Z]+)/)?.[1];
  if (signal) return l10n.t('killed by {0}', signal);
  if (/timeout/.test(summary)) {
    // The tool's own reason follows the prefix; a summary without it is shown as it is.
    const prefix = summary.match(/^✗\s*timeout:\s*/)?.[0];
    return prefix === undefined ? summary : l10n.t('timed out: {0}', summary.slice(prefix.length));
  }
  if (/interrupted/.test(summary)) return l10n.t('stopped by you');
  return ok ? l10n.t('exit {0}', '0') : undefined;
}

function simple(running: () => string, done: () => string, failed: () => string): Wording {
  return { running, done, failed };
}

/** A tool without its own wording: its name in words, and the summary's own line. */
function generic(name: string): Wording {
  const words = name.replace(/_/g, ' ');
  const title = words.charAt(0).toUpperCase() + words.slice(1);
  return {
    running: () => `${title}…`,
    done: (_a, s) => join(title, s.replace(/^✓\s*/, '')),
    failed: () => l10n.t('{0} failed', title),
  };
}

function parseArgs(json: string): Args {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Args) : {};
  } catch {
    return {};
  }
}

/** The file a call is about, as the model named it (workspace-relative as a rule). */
function file(a: Args): string {
  const path = typeof a.file_path === 'string' ? a.file_path : typeof a.path === 'string' ? a.path : l10n.t('a file');
  return shortPath(path);
}

function folder(a: Args): string {
  return typeof a.path === 'string' && a.path.trim() && a.path !== '.' ? shortPath(a.path) : l10n.t('the workspace');
}

/** Long absolute paths keep their last three parts. */
function shortPath(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts.length > 3 && path.length > 50 ? `…/${parts.slice(-3).join('/')}` : path;
}

function command(a: Args): string {
  const line = typeof a.command === 'string' ? a.command.replace(/\s+/g, ' ').trim() : l10n.t('a command');
  return clip(line, 60);
}

function quoted(value: unknown): string {
  return typeof value === 'string' && value ? `\`${clip(value, 60)}\`` : l10n.t('something');
}

function site(value: unknown): string {
  if (typeof value !== 'string') return l10n.t('a page');
  try {
    return new URL(value).host || value;
  } catch {
    return clip(value, 60);
  }
}

/** The number a summary states ("12" from "(12 lines"), as written there (with its thousands commas). */
function number(summary: string, pattern: RegExp): string | undefined {
  return summary.match(pattern)?.[1];
}

// Counts: the singular and the plural are separate strings, as languages form them differently.
const lines = (n: string | undefined) => (n === undefined ? undefined : n === '1' ? l10n.t('1 line') : l10n.t('{0} lines', n));
const files = (n: string | undefined) => (n === undefined ? undefined : n === '1' ? l10n.t('1 file') : l10n.t('{0} files', n));
const matches = (n: string | undefined) => (n === undefined ? undefined : n === '1' ? l10n.t('1 match') : l10n.t('{0} matches', n));
const entries = (n: string | undefined) => (n === undefined ? undefined : n === '1' ? l10n.t('1 entry') : l10n.t('{0} entries', n));
const results = (n: string | undefined) => (n === undefined ? undefined : n === '1' ? l10n.t('1 result') : l10n.t('{0} results', n));
// The summary says "chars" whatever the number; the headline says it in words.
const characters = (n: string | undefined) => (n === undefined ? undefined : l10n.t('{0} characters', n));

function duration(ms: number | undefined): string | undefined {
  if (ms === undefined) return undefined;
  if (ms < 1000) return l10n.t('{0} ms', Math.max(0, Math.round(ms)));
  if (ms < 60_000) return l10n.t('{0} s', Number((ms / 1000).toFixed(1)));
  return l10n.t('{0} min {1} s', Math.floor(ms / 60_000), Math.round((ms % 60_000) / 1000));
}

function join(...parts: Array<string | undefined>): string {
  return parts.filter((p): p is string => Boolean(p)).join(' · ');
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
