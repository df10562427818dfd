// The arguments of the configuration changes (`/mcp add|remove|enable|disable`, `opendev mcp …`).
// `add` is checked into a server entry:
//   <name> (--command <cmd> [args…] | --url <url>) [--env K=V]… [--header K=V]… [--description <text>] [--project]
// Our own options may stand anywhere; after `--command <cmd>` every other word is the server's
// command line, and after a `--` there every word is, even one that looks like our options.
import { SERVER_NAME_PATTERN } from './mcp-names';
import { HttpServerSchema, McpServerConfigSchema, type McpServerConfig } from './mcp-types';

export type McpScope = 'user' | 'project';

export interface McpAddRequest {
  name: string;
  config: McpServerConfig;
  scope: McpScope;
}

export const MCP_ADD_USAGE = 'add <name> (--command <cmd> [args…] | --url <url>) [--env K=V]… [--header K=V]… [--description <text>] [--project]';

const VALUED = new Set(['--url', '--env', '--header', '--description']);

/** The words of `add` (after the subcommand) → the entry to write, or what is wrong with them. */
export function parseMcpAddArgs(words: readonly string[]): McpAddRequest | { problem: string } {
  const [name, ...rest] = words;
  if (!name || name.startsWith('-')) return { problem: `Name the server first: ${MCP_ADD_USAGE}` };
  const badName = serverNameProblem(name);
  if (badName) return { problem: badName };
  let command: string | undefined;
  const args: string[] = [];
  let verbatim = false;
  let url: string | undefined;
  let description: string | undefined;
  let scope: McpScope = 'user';
  const env: Record<string, string> = {};
  const headers: Record<string, string> = {};
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i]!;
    if (verbatim) {
      args.push(word);
      continue;
    }
    if (command !== undefined && word === '--') {
      verbatim = true;
      continue;
    }
    const eq = word.startsWith('--') ? word.indexOf('=') : -1;
    const flag = eq > 0 ? word.slice(0, eq) : word;
    if (flag === '--project' || flag === '--user') {
      scope = flag === '--project' ? 'project' : 'user';
      continue;
    }
    if (flag === '--command') {
      if (command !== undefined) return { problem: '--command is given twice.' };
      const value = eq > 0 ? word.slice(eq + 1) : rest[++i];
      if (!value) return { problem: '--command needs the program to run, e.g. --command npx -y @modelcontextprotocol/server-memory' };
      command = value;
      continue;
    }
    if (VALUED.has(flag)) {
      const value = eq > 0 ? word.slice(eq + 1) : rest[++i];
      if (value === undefined) return { problem: `${flag} needs a value.` };
      if (flag === '--url') url = value;
      else if (flag === '--description') description = value;
      else {
        const pair = keyValue(value, flag === '--header');
        if (!pair) return { problem: `${flag} takes KEY=VALUE (got "${value}").` };
        (flag === '--env' ? env : headers)[pair[0]] = pair[1];
      }
      continue;
    }
    if (command !== undefined) {
      args.push(word);
      continue;
    }
    return { problem: word.startsWith('-') ? `Unknown option ${word}. Usage: ${MCP_ADD_USAGE}` : `Unexpected "${word}": pass the program with --command or the address with --url.` };
  }
  if ((command === undefined) === (url === undefined)) return { problem: `Give either --command <cmd> [args…] (a local server) or --url <url> (a remote one). Usage: ${MCP_ADD_USAGE}` };
  if (url !== undefined && Object.keys(env).length > 0) return { problem: '--env is for servers started with --command; a --url server takes --header.' };
  if (command !== undefined && Object.keys(headers).length > 0) return { problem: '--header is for servers reached with --url; a --command server takes --env.' };
  const candidate =
    command !== undefined
      ? { command, ...(args.length ? { args } : {}), ...(Object.keys(env).length ? { env } : {}), ...(description ? { description } : {}) }
      : { url, ...(Object.keys(headers).length ? { headers } : {}), ...(description ? { description } : {}) };
  // A `${VAR}` in the address is expanded when the server starts, so only its form can be checked then.
  if (url !== undefined && url.includes('${')) {
    const checked = HttpServerSchema.safeParse({ ...candidate, url: 'http://localhost/' });
    if (checked.success) return { name, config: { ...checked.data, url }, scope };
  }
  const parsed = McpServerConfigSchema.safeParse(candidate);
  if (!parsed.success || (url !== undefined && !/^https?:\/\//i.test(url))) {
    return { problem: url !== undefined ? `"${url}" is not an http(s) address (e.g. http://localhost:3000/mcp).` : (parsed.error?.issues ?? []).map((i) => i.message).join('; ') };
  }
  return { name, config: parsed.data, scope };
}

/** `<name>` (remove also takes `--project` or `--user`: which settings file to remove it from). */
export function parseMcpNameArgs(subcommand: 'remove' | 'enable' | 'disable', words: readonly string[]): { name: string; scope?: McpScope } | { problem: string } {
  const scopes = words.filter((w) => w === '--project' || w === '--user');
  const rest = words.filter((w) => w !== '--project' && w !== '--user');
  const shape = subcommand === 'remove' ? 'remove <name> [--project|--user]' : `${subcommand} <name>`;
  if (rest.length !== 1 || rest[0]!.startsWith('-') || scopes.length > 1 || (subcommand !== 'remove' && scopes.length > 0)) return { problem: `Usage: ${shape}` };
  const scope = scopes[0] === '--project' ? 'project' : scopes[0] === '--user' ? 'user' : undefined;
  return { name: rest[0]!, ...(scope ? { scope } : {}) };
}

/** Undefined when `name` can be a server's name (it becomes part of its tools' names, `mcp__<name>__<tool>`). */
export function serverNameProblem(name: string): string | undefined {
  return SERVER_NAME_PATTERN.test(name) ? undefined : `"${name}" cannot name a server: use letters, digits, "-" and "_" only.`;
}

/** `K=V`, and for headers also `K: V` (as HTTP writes them). */
function keyValue(text: string, header: boolean): [string, string] | undefined {
  const match = (header ? /^([^=:\s]+)\s*[=:]\s?(.*)$/s : /^([^=\s]+)=(.*)$/s).exec(text);
  return match ? [match[1]!, match[2]!] : undefined;
}
