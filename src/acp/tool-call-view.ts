// How one of our tool calls looks to an ACP client: its kind (the client picks an icon and a
// layout by it), the files it touches (the client follows them), and the content it shows (a diff
// for an edit, the output for a command, the summary otherwise).
import { isAbsolute, resolve } from 'node:path';
import type { ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';
import { parseToolArguments } from '../core/messages';
import type { ToolResult } from '../core/tool-result';

const KINDS: Readonly<Record<string, ToolKind>> = {
  read_file: 'read',
  read_pdf: 'read',
  analyze_image: 'read',
  list_todos: 'read',
  edit_file: 'edit',
  write_file: 'edit',
  notebook_edit: 'edit',
  replace_symbol_body: 'edit',
  insert_at_symbol: 'edit',
  rename_symbol: 'edit',
  search: 'search',
  list_files: 'search',
  find_symbol: 'search',
  find_referencing_symbols: 'search',
  web_search: 'search',
  run_command: 'execute',
  get_process_output: 'execute',
  kill_process: 'execute',
  list_processes: 'execute',
  fetch_url: 'fetch',
  capture_web_screenshot: 'fetch',
  present_plan: 'think',
  write_todos: 'think',
  update_todo: 'think',
  complete_todo: 'think',
};

/** The argument names our tools give a file or folder. */
const PATH_ARGUMENTS = ['file_path', 'path', 'notebook_path'] as const;

export function toolKind(name: string): ToolKind {
  return KINDS[name] ?? 'other';
}

/** The arguments as an object (a malformed string from the model becomes {}). */
export function toolArguments(args: string): Record<string, unknown> {
  const parsed = parseToolArguments(args);
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

/** The files a call names, absolute (ACP wants absolute paths). */
export function toolLocations(args: Record<string, unknown>, workspaceRoot: string): ToolCallLocation[] {
  const locations: ToolCallLocation[] = [];
  for (const key of PATH_ARGUMENTS) {
    const value = args[key];
    if (typeof value === 'string' && value.length > 0) locations.push({ path: isAbsolute(value) ? value : resolve(workspaceRoot, value) });
  }
  return locations;
}

/** One line for the client's card: the command, the file, or the tool's name. */
export function toolTitle(name: string, args: Record<string, unknown>): string {
  const command = args.command;
  if (typeof command === 'string') return command;
  for (const key of PATH_ARGUMENTS) {
    const value = args[key];
    if (typeof value === 'string' && value.length > 0) return `${name} ${value}`;
  }
  const pattern = args.pattern ?? args.query ?? args.url;
  return typeof pattern === 'string' ? `${name} ${pattern}` : name;
}

export function textContent(text: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text } };
}

/** What a finished call shows: the diff of an edit, else what the tool reported. */
export function resultContent(result: ToolResult): ToolCallContent[] {
  if (result.change) return [{ type: 'diff', path: result.change.path, oldText: result.change.before, newText: result.change.after }];
  return [textContent(result.output.length > MAX_SHOWN_CHARS ? `${result.output.slice(0, MAX_SHOWN_CHARS)}\n…` : result.output)];
}

/** A tool's output beyond this is the model's business (it may be offloaded), not the card's. */
export const MAX_SHOWN_CHARS = 64 * 1024;
