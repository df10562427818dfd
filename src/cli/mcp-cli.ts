// `opendev mcp list|add|remove|enable|disable|trust|untrust`: the MCP configuration from the command line, with no
// model and no API key (paper, appendix J). Exit codes as the rest of the CLI: 0 done, 1 failed
// (a file that cannot be written, a server that fails its check), 2 bad usage.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { settingsFileLayer } from '../core/config/layered-settings';
import { opendevPaths, resolveOpendevHome } from '../core/config/opendev-home';
import { configureSecretEnv } from '../core/process/child-env';
import { loadMcpConfig } from '../core/mcp/mcp-config';
import { mcpConfigFiles, runMcpEdit, type McpEditSubcommand } from '../core/mcp/mcp-config-edit';
import { formatServerTable, formatTestResult } from '../core/mcp/mcp-status-format';
import { McpHub } from '../core/mcp/mcp-hub';
import { ToolRegistry } from '../core/tools/registry';
import { MCP_HELP } from './help';
import { EXIT } from './print-mode';

export interface McpCliIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const SUBCOMMANDS = ['list', 'add', 'remove', 'enable', 'disable', 'trust', 'untrust'] as const;
const COMMAND = 'opendev mcp';

/** `argv`: the words after `opendev mcp`. */
export async function runMcpCli(argv: readonly string[], io: McpCliIo): Promise<number> {
  const usage = (text: string) => {
    io.stderr(`opendev mcp: ${text}\nRun "opendev mcp --help" for usage.\n`);
    return EXIT.usage;
  };
  const words = [...argv];
  let workingDir: string | undefined;
  // Our options stand before the subcommand (after it, too, except for add, whose words after
  // --command belong to the server's command line).
  for (let i = 0; i < words.length; ) {
    const word = words[i]!;
    if (i > 0 && words[0] === 'add') break;
    if (word === '-h' || word === '--help') {
      io.stdout(`${MCP_HELP}\n`);
      return EXIT.ok;
    }
    if (word === '-C' || word === '--working-dir' || word.startsWith('--working-dir=')) {
      const value = word.includes('=') ? word.slice(word.indexOf('=') + 1) : words[i + 1];
      if (!value) return usage(`${word} needs a folder`);
      workingDir = value;
      words.splice(i, word.includes('=') ? 1 : 2);
      continue;
    }
    i++;
  }
  const [sub, ...rest] = words;
  if (!sub) {
    io.stdout(`${MCP_HELP}\n`);
    return EXIT.usage;
  }
  if (!(SUBCOMMANDS as readonly string[]).includes(sub)) return usage(`unknown command "${sub}" (use ${SUBCOMMANDS.join(', ')})`);
  const workspaceRoot = resolve(io.cwd, workingDir ?? '.');
  if (!existsSync(workspaceRoot) || !statSync(workspaceRoot).isDirectory()) return usage(`--working-dir ${workspaceRoot} is not a folder`);
  const home = resolveOpendevHome(io.env);
  // The user's secretEnvVars: a project's server gets none of them through `${VAR}` (list --test starts servers).
  configureSecretEnv({ extra: settingsFileLayer('user', opendevPaths(home).settingsFile).layer?.values.secretEnvVars ?? [] });

  if (sub === 'trust' || sub === 'untrust') return trustCommand(sub, rest, { home, workspaceRoot, io, usage });
  if (sub !== 'list') {
    const outcome = await runMcpEdit(mcpConfigFiles(home, workspaceRoot), sub as McpEditSubcommand, rest, { command: COMMAND });
    if (outcome.ok) {
      io.stdout(`${outcome.message}\n`);
      return EXIT.ok;
    }
    io.stderr(`opendev mcp: ${outcome.message}\n`);
    return outcome.usage ? EXIT.usage : EXIT.failure;
  }

  const test = rest.includes('--test');
  const unknown = rest.find((w) => w !== '--test');
  if (unknown) return usage(`list takes only --test (got "${unknown}")`);
  const hub = sessionHub(home, workspaceRoot, io);
  try {
    if (!test) {
      io.stdout(`${formatServerTable(hub.list(), { command: COMMAND, footer: `${COMMAND} list --test starts each enabled server and checks it.` })}\n`);
      return EXIT.ok;
    }
    const enabled = hub.list().filter((s) => s.enabled);
    const results = await Promise.all(enabled.map(async (s) => ({ name: s.name, result: await hub.test(s.name) })));
    io.stdout(`${formatServerTable(hub.list(), { command: COMMAND, footer: '' }).trimEnd()}\n`);
    for (const { name, result } of results) io.stdout(`${formatTestResult(name, result)}\n`);
    return results.every((r) => r.result.ok) ? EXIT.ok : EXIT.failure;
  } finally {
    await hub.dispose();
  }
}

/** The session's own hub, with nothing started: list() is the configuration as a session sees it. */
function sessionHub(home: string, workspaceRoot: string, io: McpCliIo): McpHub {
  return new McpHub({
    registry: new ToolRegistry(),
    home,
    workspaceRoot,
    load: () => loadMcpConfig({ home, workspaceRoot, env: io.env }),
    onWarning: (warning) => io.stderr(`opendev mcp: ${warning}\n`),
  });
}

/** `trust <name>` / `untrust <name>`: the user's consent for a server the project defines, remembered or forgotten. */
async function trustCommand(sub: 'trust' | 'untrust', words: string[], where: { home: string; workspaceRoot: string; io: McpCliIo; usage: (text: string) => number }): Promise<number> {
  const { io } = where;
  if (words.length !== 1) return where.usage(`use ${COMMAND} ${sub} <name>`);
  const name = words[0]!;
  const hub = sessionHub(where.home, where.workspaceRoot, io);
  try {
    if (!hub.servers().some((s) => s.name === name)) {
      const known = hub.servers().map((s) => s.name);
      return where.usage(`No MCP server "${name}" is configured${known.length ? ` (configured: ${known.join(', ')})` : ''}. ${COMMAND} list shows them.`);
    }
    const outcome = await hub.setTrust(name, sub === 'trust');
    if (!outcome.ok) {
      io.stderr(`opendev mcp: ${outcome.message}\n`);
      return EXIT.failure;
    }
    const trusted = sub === 'trust' && hub.list().find((s) => s.name === name)?.trust !== undefined;
    io.stdout(`${outcome.message}${trusted ? ` ${COMMAND} untrust ${name} takes it back.` : ''}\n`);
    return EXIT.ok;
  } finally {
    await hub.dispose();
  }
}
