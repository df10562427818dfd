/**
 * A tool card's header in words a person reads ("Read math.ts · 12 lines", "Ran npm test · exit 0 ·
 * 3.2 s", "Edited src/a.ts · +3 −1"), made from the call's name and arguments and how it ended. The
 * raw name, arguments and output stay one click away on the card; nothing here is meant for the
 * model. Pure: the chat's turn UI calls it, the webview only renders the string.
 */

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

const WORDINGS: Record<string, Wording> = {
  read_file: {
    running: (a) => `Reading ${file(a)}…`,
    done: (a, s) => join(`Read ${file(a)}`, count(s, /\(([\d,]+) lines?/, 'line')),
    failed: (a) => `Couldn't read ${file(a)}`,
  },
  run_command: {
    running: (a) => (a.background === true ? `Starting ${command(a)}…` : `Running ${command(a)}…`),
    done: (a, s, ms) =>
      /background task/.test(s) ? `Started ${command(a)} in the background` : join(`Ran ${command(a)}`, exitOf(s, true), duration(ms)),
    failed: (a) => `Ran ${command(a)}`,
  },
  edit_file: {
    running: (a) => `Editing ${file(a)}…`,
    done: (a, s) => join(`Edited ${file(a)}`, s.match(/\(([+−-]\d+ [−-]\d+)/)?.[1], rejectedOf(s)),
    failed: (a) => `Couldn't edit ${file(a)}`,
  },
  write_file: {
    running: (a) => `Writing ${file(a)}…`,
    done: (a, s) => join(`${/Created/.test(s) ? 'Created' : 'Wrote'} ${file(a)}`, count(s, /\(([\d,]+) lines?/, 'line')),
    failed: (a) => `Couldn't write ${file(a)}`,
  },
  search: {
    running: (a) => `Searching for ${quoted(a.pattern)}…`,
    done: (a, s) => join(`Searched for ${quoted(a.pattern)}`, /✓ 0 matches/.test(s) ? 'no matches' : s.match(/in ([\d,]+ files?)/)?.[1]),
    failed: (a) => `Couldn't search for ${quoted(a.pattern)}`,
  },
  list_files: {
    running: (a) => `Listing ${folder(a)}…`,
    done: (a, s) =>
      typeof a.pattern === 'string'
        ? join(`Looked for ${quoted(a.pattern)} in ${folder(a)}`, count(s, /([\d,]+) match/, 'match', 'matches'))
        : join(`Listed ${folder(a)}`, count(s, /\(([\d,]+) entr/, 'entry', 'entries')),
    failed: (a) => `Couldn't list ${folder(a)}`,
  },
  fetch_url: {
    running: (a) => `Fetching ${site(a.url)}…`,
    done: (a, s) => join(`Fetched ${site(a.url)}`, s.match(/([\d,]+ chars)/)?.[1]?.replace('chars', 'characters')),
    failed: (a) => `Couldn't fetch ${site(a.url)}`,
  },
  web_search: {
    running: (a) => `Searching the web for ${quoted(a.query)}…`,
    done: (a, s) => join(`Searched the web for ${quoted(a.query)}`, /no results/.test(s) ? 'no results' : count(s, /([\d,]+) results?/, 'result')),
    failed: (a) => `Couldn't search the web for ${quoted(a.query)}`,
  },
  write_todos: simple('Updating the todo list', 'Updated the todo list', "Couldn't update the todo list"),
  update_todo: simple('Updating a todo', 'Updated a todo', "Couldn't update a todo"),
  complete_todo: simple('Completing a todo', 'Completed a todo', "Couldn't complete a todo"),
  list_todos: simple('Reading the todo list', 'Read the todo list', "Couldn't read the todo list"),
  task_complete: simple('Finishing', 'Finished the task', "Couldn't finish"),
  spawn_subagent: simple('Starting a helper agent', 'A helper agent finished', 'A helper agent failed'),
  find_symbol: {
    running: (a) => `Finding ${quoted(a.name_path ?? a.name ?? a.symbol)}…`,
    done: (a) => `Found ${quoted(a.name_path ?? a.name ?? a.symbol)}`,
    failed: (a) => `Couldn't find ${quoted(a.name_path ?? a.name ?? a.symbol)}`,
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
  return first.replace(/\.$/, '') || 'it failed';
}

/** "1 of 2 changes rejected": an edit the user decided change by change. */
function rejectedOf(summary: string): string | undefined {
  const m = summary.match(/rejected (\d+) of (\d+) hunks/);
  return m ? `${m[1]} of ${m[2]} changes rejected` : undefined;
}

/** "exit 0", "exit 2", "killed by SIGTERM": from the summary (`✗ exit 2: …`); a success with no code said is exit 0. */
function exitOf(summary: string, ok: boolean): string | undefined {
  const code = summary.match(/\bexit (\d+)/)?.[1];
  if (code) return `exit ${code}`;
  const signal = summary.match(/\b(SIG[A-Z]+)/)?.[1];
  if (signal) return `killed by ${signal}`;
  if (/timeout/.test(summary)) return summary.replace(/^✗\s*timeout:\s*/, 'timed out: ');
  if (/interrupted/.test(summary)) return 'stopped by you';
  return ok ? 'exit 0' : undefined;
}

function simple(running: string, done: string, failed: string): Wording {
  return { running: () => `${running}…`, done: () => done, failed: () => failed };
}

/** A tool without its own wording: its name in words, and the summary's own line. */
function generic(name: string): Wording {
  const words = name.replace(/_/g, ' ');
  const title = words.charAt(0).toUpperCase() + words.slice(1);
  return {
    running: () => `${title}…`,
    done: (_a, s) => join(title, s.replace(/^✓\s*/, '')),
    failed: () => `${title} failed`,
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
  const path = typeof a.file_path === 'string' ? a.file_path : typeof a.path === 'string' ? a.path : 'a file';
  return shortPath(path);
}

function folder(a: Args): string {
  return typeof a.path === 'string' && a.path.trim() && a.path !== '.' ? shortPath(a.path) : 'the workspace';
}

/** Long absolute paths keep their last three parts. */
function shortPath(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts.length > 3 && path.length > 50 ? `…/${parts.slice(-3).join('/')}` : path;
}

function command(a: Args): string {
  const line = typeof a.command === 'string' ? a.command.replace(/\s+/g, ' ').trim() : 'a command';
  return clip(line, 60);
}

function quoted(value: unknown): string {
  return typeof value === 'string' && value ? `\`${clip(value, 60)}\`` : 'something';
}

function site(value: unknown): string {
  if (typeof value !== 'string') return 'a page';
  try {
    return new URL(value).host || value;
  } catch {
    return clip(value, 60);
  }
}

/** "12 lines" from a summary that says "(12 lines". */
function count(summary: string, pattern: RegExp, one: string, many = `${one}s`): string | undefined {
  const n = summary.match(pattern)?.[1];
  return n === undefined ? undefined : `${n} ${n === '1' ? one : many}`;
}

function duration(ms: number | undefined): string | undefined {
  if (ms === undefined) return undefined;
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(1))} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

function join(...parts: Array<string | undefined>): string {
  return parts.filter((p): p is string => Boolean(p)).join(' · ');
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
