// "Add MCP Server": a name, then a command line or a URL, then where to keep it (the user's
// settings or this project's). Environment variables and headers are added in the file itself.
import * as vscode from 'vscode';
import { parseMcpAddArgs, serverNameProblem, splitWords, type McpAddRequest } from '../../core/mcp/mcp-edit-args';
import type { McpConfigFiles } from '../../core/mcp/mcp-config-edit';

const TITLE = 'Add MCP Server';

/** Asks step by step; undefined when the user cancels. */
export async function askForServer(files: McpConfigFiles): Promise<McpAddRequest | undefined> {
  const name = await vscode.window.showInputBox({
    title: `${TITLE} (1/3)`,
    prompt: 'A name for the server (letters, digits, - and _); its tools are called mcp__<name>__<tool>',
    placeHolder: 'memory',
    validateInput: (value) => (value.trim() ? serverNameProblem(value.trim()) : 'Give the server a name.'),
  });
  if (name === undefined) return undefined;
  const line = await vscode.window.showInputBox({
    title: `${TITLE} (2/3)`,
    prompt: 'The command that starts the server, or the URL of a remote one',
    placeHolder: 'npx -y @modelcontextprotocol/server-memory   or   https://example.com/mcp',
    validateInput: (value) => {
      const words = splitWords(value.trim());
      if (!Array.isArray(words)) return words.problem;
      if (words.length === 0) return 'Type a command line or a URL.';
      const parsed = parseMcpAddArgs(addWords(name.trim(), words));
      return 'problem' in parsed ? parsed.problem : undefined;
    },
  });
  if (line === undefined) return undefined;
  const words = splitWords(line.trim());
  if (!Array.isArray(words)) return undefined;
  const places: Array<vscode.QuickPickItem & { scope: 'user' | 'project' }> = [
    { label: 'User settings', description: 'in every project', detail: files.user, scope: 'user' },
    ...(files.project ? [{ label: 'This project', description: 'shared with whoever uses .opendev/settings.json', detail: files.project, scope: 'project' as const }] : []),
  ];
  const place = await vscode.window.showQuickPick(places, { title: `${TITLE} (3/3)`, placeHolder: 'Where to keep it' });
  if (!place) return undefined;
  const parsed = parseMcpAddArgs([...addWords(name.trim(), words), ...(place.scope === 'project' ? ['--project'] : [])]);
  return 'problem' in parsed ? undefined : parsed;
}

/** A lone http(s) address is a remote server; anything else is a command line, taken word for word. */
function addWords(name: string, words: string[]): string[] {
  if (words.length === 1 && /^https?:\/\//i.test(words[0]!)) return [name, '--url', words[0]!];
  return [name, '--command', words[0]!, '--', ...words.slice(1)];
}
