import * as l10n from '@vscode/l10n';
import { characters, command, duration, entries, file, files, folder, join, lines, matches, number, quoted, results, site, type Args } from './call-subjects';

/**
 * What each tool does, in words: asked before it runs ("Edit math.ts?"), while it runs ("Reading"),
 * once it ran ("Read") and when it failed. The one table of tool verbs: the chat's tool and approval
 * cards, the OpenDev terminal and the CLI all speak from it. Each wording is a function, so l10n.t
 * runs when a line is drawn (after activation configured the bundle).
 */
export interface Wording {
  /** The approval question. `creates`: the file does not exist yet. */
  ask(a: Args, creates: boolean): string;
  running(a: Args): string;
  done(a: Args, summary: string, durationMs: number | undefined): string;
  /** The failed call's subject: "Couldn't read math.ts". */
  failed(a: Args): string;
}

const symbol = (a: Args) => quoted(a.name_path ?? a.name ?? a.symbol);

export const WORDINGS: Record<string, Wording> = {
  read_file: {
    ask: (a) => l10n.t('Read {0}?', file(a)),
    running: (a) => l10n.t('Reading {0}…', file(a)),
    done: (a, s) => join(l10n.t('Read {0}', file(a)), lines(number(s, /\(([\d,]+) lines?/))),
    failed: (a) => l10n.t("Couldn't read {0}", file(a)),
  },
  run_command: {
    ask: (a) => l10n.t('Run {0}?', command(a)),
    running: (a) => (a.background === true ? l10n.t('Starting {0}…', command(a)) : l10n.t('Running {0}…', command(a))),
    done: (a, s, ms) =>
      /background task/.test(s) ? l10n.t('Started {0} in the background', command(a)) : join(l10n.t('Ran {0}', command(a)), exitOf(s, true), duration(ms)),
    failed: (a) => l10n.t('Ran {0}', command(a)),
  },
  edit_file: {
    ask: (a) => l10n.t('Edit {0}?', file(a)),
    running: (a) => l10n.t('Editing {0}…', file(a)),
    done: (a, s) => join(l10n.t('Edited {0}', file(a)), s.match(/\(([+−-]\d+ [−-]\d+)/)?.[1], rejectedOf(s)),
    failed: (a) => l10n.t("Couldn't edit {0}", file(a)),
  },
  write_file: {
    ask: (a, creates) => (creates ? l10n.t('Create {0}?', file(a)) : l10n.t('Overwrite {0}?', file(a))),
    running: (a) => l10n.t('Writing {0}…', file(a)),
    done: (a, s) => join(/Created/.test(s) ? l10n.t('Created {0}', file(a)) : l10n.t('Wrote {0}', file(a)), lines(number(s, /\(([\d,]+) lines?/))),
    failed: (a) => l10n.t("Couldn't write {0}", file(a)),
  },
  notebook_edit: {
    ask: (a) =>
      a.action === 'delete'
        ? l10n.t('Delete cell {0} of {1}?', String(a.cell_index ?? '?'), file(a))
        : a.action === 'insert'
          ? l10n.t('Insert a cell into {0}?', file(a))
          : l10n.t('Edit {0}?', file(a)),
    running: (a) => l10n.t('Editing {0}…', file(a)),
    done: (a) => l10n.t('Edited {0}', file(a)),
    failed: (a) => l10n.t("Couldn't edit {0}", file(a)),
  },
  search: {
    ask: (a) => l10n.t('Search for {0}?', quoted(a.pattern)),
    running: (a) => l10n.t('Searching for {0}…', quoted(a.pattern)),
    done: (a, s) => join(l10n.t('Searched for {0}', quoted(a.pattern)), /✓ 0 matches/.test(s) ? l10n.t('no matches') : files(number(s, /in ([\d,]+) files?/))),
    failed: (a) => l10n.t("Couldn't search for {0}", quoted(a.pattern)),
  },
  list_files: {
    ask: (a) => l10n.t('List {0}?', folder(a)),
    running: (a) => l10n.t('Listing {0}…', folder(a)),
    done: (a, s) =>
      typeof a.pattern === 'string'
        ? join(l10n.t('Looked for {0} in {1}', quoted(a.pattern), folder(a)), matches(number(s, /([\d,]+) match/)))
        : join(l10n.t('Listed {0}', folder(a)), entries(number(s, /\(([\d,]+) entr/))),
    failed: (a) => l10n.t("Couldn't list {0}", folder(a)),
  },
  fetch_url: {
    ask: (a) => l10n.t('Fetch {0}?', site(a.url)),
    running: (a) => l10n.t('Fetching {0}…', site(a.url)),
    done: (a, s) => join(l10n.t('Fetched {0}', site(a.url)), characters(number(s, /([\d,]+) chars/))),
    failed: (a) => l10n.t("Couldn't fetch {0}", site(a.url)),
  },
  web_search: {
    ask: (a) => l10n.t('Search the web for {0}?', quoted(a.query)),
    running: (a) => l10n.t('Searching the web for {0}…', quoted(a.query)),
    done: (a, s) => join(l10n.t('Searched the web for {0}', quoted(a.query)), /no results/.test(s) ? l10n.t('no results') : results(number(s, /([\d,]+) results?/))),
    failed: (a) => l10n.t("Couldn't search the web for {0}", quoted(a.query)),
  },
  find_symbol: {
    ask: (a) => l10n.t('Find {0}?', symbol(a)),
    running: (a) => l10n.t('Finding {0}…', symbol(a)),
    done: (a) => l10n.t('Found {0}', symbol(a)),
    failed: (a) => l10n.t("Couldn't find {0}", symbol(a)),
  },
  rename_symbol: {
    ask: (a) => l10n.t('Rename {0} to {1}?', symbol(a), quoted(a.new_name)),
    running: (a) => l10n.t('Renaming {0}…', symbol(a)),
    done: (a) => l10n.t('Renamed {0} to {1}', symbol(a), quoted(a.new_name)),
    failed: (a) => l10n.t("Couldn't rename {0}", symbol(a)),
  },
  replace_symbol_body: {
    ask: (a) => l10n.t('Rewrite {0} in {1}?', symbol(a), file(a)),
    running: (a) => l10n.t('Rewriting {0}…', symbol(a)),
    done: (a) => l10n.t('Rewrote {0} in {1}', symbol(a), file(a)),
    failed: (a) => l10n.t("Couldn't rewrite {0}", symbol(a)),
  },
  kill_process: {
    ask: (a) => l10n.t('Stop task {0}?', String(a.task_id ?? '?')),
    running: (a) => l10n.t('Stopping task {0}…', String(a.task_id ?? '?')),
    done: (a) => l10n.t('Stopped task {0}', String(a.task_id ?? '?')),
    failed: (a) => l10n.t("Couldn't stop task {0}", String(a.task_id ?? '?')),
  },
  write_todos: simple(() => l10n.t('Update the todo list?'), () => l10n.t('Updating the todo list…'), () => l10n.t('Updated the todo list'), () => l10n.t("Couldn't update the todo list")),
  update_todo: simple(() => l10n.t('Update a todo?'), () => l10n.t('Updating a todo…'), () => l10n.t('Updated a todo'), () => l10n.t("Couldn't update a todo")),
  complete_todo: simple(() => l10n.t('Complete a todo?'), () => l10n.t('Completing a todo…'), () => l10n.t('Completed a todo'), () => l10n.t("Couldn't complete a todo")),
  list_todos: simple(() => l10n.t('Read the todo list?'), () => l10n.t('Reading the todo list…'), () => l10n.t('Read the todo list'), () => l10n.t("Couldn't read the todo list")),
  task_complete: simple(() => l10n.t('Finish the task?'), () => l10n.t('Finishing…'), () => l10n.t('Finished the task'), () => l10n.t("Couldn't finish")),
  spawn_subagent: simple(() => l10n.t('Start a helper agent?'), () => l10n.t('Starting a helper agent…'), () => l10n.t('A helper agent finished'), () => l10n.t('A helper agent failed')),
};

/** The wording of `name`: its own, an MCP server's tool by server and title, or the name in words. */
export function wordingOf(name: string): Wording {
  return WORDINGS[name] ?? mcpWording(name) ?? generic(name);
}

/** "exit 0", "exit 2", "killed by SIGTERM": from the summary (`✗ exit 2: …`); a success with no code said is exit 0. */
export function exitOf(summary: string, ok: boolean): string | undefined {
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

/** "1 of 2 changes rejected": an edit the user decided change by change. */
function rejectedOf(summary: string): string | undefined {
  const m = summary.match(/rejected (\d+) of (\d+) hunks/);
  return m ? l10n.t('{0} of {1} changes rejected', m[1]!, m[2]!) : undefined;
}

function simple(ask: () => string, running: () => string, done: () => string, failed: () => string): Wording {
  return { ask, running, done, failed };
}

/** "read_graph" → "Read graph". */
function words(name: string): string {
  const text = name.replace(/_+/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `mcp__<server>__<tool>` (mcp-names.ts): the tool's title and the server it comes from. */
function mcpWording(name: string): Wording | undefined {
  const m = /^mcp__(.+?)__(.+)$/.exec(name);
  if (!m) return undefined;
  const server = m[1]!;
  const title = words(m[2]!);
  return {
    ask: () => l10n.t('Use {0} from {1}?', title, server),
    running: () => l10n.t('Using {0} from {1}…', title, server),
    done: (_a, s) => join(l10n.t('Used {0} from {1}', title, server), s.replace(/^✓\s*/, '') || undefined),
    failed: () => l10n.t('{0} from {1} failed', title, server),
  };
}

/** A tool without its own wording: its name in words, and the summary's own line. */
function generic(name: string): Wording {
  const title = words(name);
  return {
    ask: () => l10n.t('Allow {0}?', title),
    running: () => `${title}…`,
    done: (_a, s) => join(title, s.replace(/^✓\s*/, '')),
    failed: () => l10n.t('{0} failed', title),
  };
}
