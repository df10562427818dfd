// "Add MCP Server": a name, then a command line or a URL, then where to keep it (the user's
// settings or this project's). Environment variables and headers are added in the file itself.
// Each step is a quick input this module owns, so the one open can be read (and filled, by the
// integration tests, which then accept it as Enter does).
import * as vscode from 'vscode';
import { parseMcpAddArgs, serverNameProblem, type McpAddRequest } from '../../core/mcp/mcp-edit-args';
import type { McpConfigFiles } from '../../core/mcp/mcp-config-edit';
import { splitQuotedWords } from '../../core/mcp/typed-words';


/** The step of "Add MCP Server" on screen. */
export interface AddServerStep {
  title: string;
  value: string;
  validationMessage?: string;
  /** The choices of the last step. */
  items?: string[];
}

let open: { step(): AddServerStep; fill(value: string): void } | undefined;

/** The step on screen, if any (the extension's test API). */
export function addServerStep(): AddServerStep | undefined {
  return open?.step();
}

/** Puts `value` in the open step's box as if typed (the extension's test API). */
export function fillAddServerStep(value: string): void {
  if (!open) throw new Error('"Add MCP Server" is not asking anything.');
  open.fill(value);
}

/** Asks step by step; undefined when the user cancels. */
export async function askForServer(files: McpConfigFiles): Promise<McpAddRequest | undefined> {
  const name = await askLine({
    title: vscode.l10n.t('Add MCP Server ({0}/3)', 1),
    prompt: vscode.l10n.t('A name for the server (letters, digits, - and _); its tools are called mcp__<name>__<tool>'),
    placeholder: 'memory',
    validate: (value) => (value.trim() ? serverNameProblem(value.trim()) : vscode.l10n.t('Give the server a name.')),
  });
  if (name === undefined) return undefined;
  const line = await askLine({
    title: vscode.l10n.t('Add MCP Server ({0}/3)', 2),
    prompt: vscode.l10n.t('The command that starts the server, or the URL of a remote one'),
    placeholder: 'npx -y @modelcontextprotocol/server-memory   or   https://example.com/mcp',
    validate: (value) => {
      const words = splitQuotedWords(value.trim());
      if (!Array.isArray(words)) return words.problem;
      if (words.length === 0) return vscode.l10n.t('Type a command line or a URL.');
      const parsed = parseMcpAddArgs(addWords(name.trim(), words));
      return 'problem' in parsed ? parsed.problem : undefined;
    },
  });
  if (line === undefined) return undefined;
  const words = splitQuotedWords(line.trim());
  if (!Array.isArray(words)) return undefined;
  const places: Array<vscode.QuickPickItem & { scope: 'user' | 'project' }> = [
    { label: vscode.l10n.t('User settings'), description: vscode.l10n.t('in every project'), detail: files.user, scope: 'user' },
    ...(files.project ? [{ label: vscode.l10n.t('This project'), description: vscode.l10n.t('shared with whoever uses .opendev/settings.json'), detail: files.project, scope: 'project' as const }] : []),
  ];
  const place = await pickOne(places, { title: vscode.l10n.t('Add MCP Server ({0}/3)', 3), placeholder: vscode.l10n.t('Where to keep it') });
  if (!place) return undefined;
  const parsed = parseMcpAddArgs([...addWords(name.trim(), words), ...(place.scope === 'project' ? ['--project'] : [])]);
  return 'problem' in parsed ? undefined : parsed;
}

/** A lone http(s) address is a remote server; anything else is a command line, taken word for word. */
function addWords(name: string, words: string[]): string[] {
  if (words.length === 1 && /^https?:\/\//i.test(words[0]!)) return [name, '--url', words[0]!];
  return [name, '--command', words[0]!, '--', ...words.slice(1)];
}

/** One line of text, checked as it is typed and again on Enter (which it refuses while there is a problem). */
function askLine(options: { title: string; prompt: string; placeholder: string; validate: (value: string) => string | undefined }): Promise<string | undefined> {
  const box = vscode.window.createInputBox();
  box.title = options.title;
  box.prompt = options.prompt;
  box.placeholder = options.placeholder;
  box.ignoreFocusOut = true;
  return new Promise((resolve) => {
    const check = (value: string) => (box.validationMessage = options.validate(value));
    let settled = false;
    // Hiding follows disposing, maybe once the next step is open: only the first end counts.
    const finish = (value: string | undefined) => {
      if (settled) return;
      settled = true;
      if (open === handle) open = undefined;
      resolve(value);
      box.dispose();
    };
    const handle: typeof open = {
      step: () => ({ title: box.title ?? '', value: box.value, ...(typeof box.validationMessage === 'string' ? { validationMessage: box.validationMessage } : {}) }),
      fill: (value) => {
        box.value = value;
        check(value);
      },
    };
    open = handle;
    box.onDidChangeValue(check);
    box.onDidAccept(() => {
      if (check(box.value) === undefined) finish(box.value);
    });
    box.onDidHide(() => finish(undefined));
    box.show();
  });
}

function pickOne<T extends vscode.QuickPickItem>(items: T[], options: { title: string; placeholder: string }): Promise<T | undefined> {
  const pick = vscode.window.createQuickPick<T>();
  pick.title = options.title;
  pick.placeholder = options.placeholder;
  pick.items = items;
  pick.ignoreFocusOut = true;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (item: T | undefined) => {
      if (settled) return;
      settled = true;
      if (open === handle) open = undefined;
      resolve(item);
      pick.dispose();
    };
    const handle: typeof open = {
      step: () => ({ title: pick.title ?? '', value: pick.value, items: pick.items.map((i) => i.label) }),
      fill: (value) => void (pick.value = value),
    };
    open = handle;
    pick.onDidAccept(() => finish(pick.activeItems[0]));
    pick.onDidHide(() => finish(undefined));
    pick.show();
  });
}
