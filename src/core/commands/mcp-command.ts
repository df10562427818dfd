// /mcp: the session's MCP servers, the same in every front end. Reading subcommands ask the agent's
// hub; the ones that change the configuration write the settings files, then have the hub re-read them.
import { resolveOpendevHome } from '../config/opendev-home';
import { MCP_ADD_USAGE } from '../mcp/mcp-edit-args';
import { splitQuotedWords } from '../mcp/typed-words';
import { loadMcpConfig } from '../mcp/mcp-config';
import { mcpConfigFiles, runMcpEdit, type McpEditSubcommand } from '../mcp/mcp-config-edit';
import { formatServerTable, formatTestResult, formatToolList } from '../mcp/mcp-status-format';
import type { McpHubApi } from '../mcp/mcp-types';
import type { CommandContext, CommandResult, SlashCommand } from './command-registry';

export const MCP_SUBCOMMANDS = ['list', 'tools', 'test', 'connect', 'disconnect', 'trust', 'untrust', 'add', 'remove', 'enable', 'disable'] as const;
type Subcommand = (typeof MCP_SUBCOMMANDS)[number];

const COMMAND = '/mcp';

const DETAILS = [
  'Usage:',
  '  /mcp list                 the servers: state, transport, where configured, tools, last error',
  '  /mcp tools <name>         the tools a server offers (starts it)',
  '  /mcp test <name>          start the server, list its tools and ping it: time taken or the error',
  '  /mcp connect <name>       start (or restart) a server now',
  '  /mcp disconnect <name>    stop a server (it starts again when the agent needs it)',
  '  /mcp trust <name>         let a server this project defines start without asking (remembered for you, in this',
  '                            workspace, until its definition changes); /mcp untrust <name> takes it back',
  `  /mcp ${MCP_ADD_USAGE}`,
  '                            add a server to your user settings (--project: this project\'s .opendev/settings.json)',
  '  /mcp remove <name> [--project|--user]   remove a server from the OpenDev settings that define it',
  '  /mcp enable <name>, /mcp disable <name>  turn a server on or off where it is configured',
].join('\n');

const ok = (output: string): CommandResult => ({ output });
const usage = (output: string): CommandResult => ({ output, error: 'usage' });
const failed = (output: string): CommandResult => ({ output, error: 'unavailable' });

export interface McpCommandOptions {
  /** The OpenDev home whose settings.json holds the user's servers (default: OPENDEV_HOME, else ~/.opendev). */
  home?: () => string;
}

export function mcpCommand(options: McpCommandOptions = {}): SlashCommand {
  const home = options.home ?? (() => resolveOpendevHome());
  return {
    name: 'mcp',
    summary: 'MCP servers: list, tools, test, connect, disconnect, trust, untrust, add, remove, enable, disable (/mcp help)',
    usage: '/mcp [subcommand] [name]',
    argChoices: MCP_SUBCOMMANDS,
    // Looking is safe while the agent works; changes wait for the turn to end (checked below).
    whileRunning: true,
    async run(args, ctx) {
      const words = splitQuotedWords(args);
      if (!Array.isArray(words)) return usage(`${words.problem}\n${DETAILS}`);
      const sub = (words[0] ?? 'list').toLowerCase();
      if (sub === 'help') return ok(DETAILS);
      if (!(MCP_SUBCOMMANDS as readonly string[]).includes(sub)) return usage(`Unknown subcommand "${words[0]}".\n${DETAILS}`);
      const subcommand = sub as Subcommand;
      const hub = ctx.agent.mcp;
      // Starting a server mid-turn is what the agent does itself; stopping or reconfiguring one is not.
      if (['add', 'remove', 'enable', 'disable', 'disconnect'].includes(subcommand) && ctx.agent.running) {
        return usage(`Wait for the agent to finish (or stop it) before /mcp ${subcommand}: it changes the tools the agent is using.`);
      }
      if (['add', 'remove', 'enable', 'disable'].includes(subcommand)) return edit(subcommand, words.slice(1), ctx, home);
      if (!hub) return failed('MCP servers are not available here: they belong to a project session (open a folder, or run opendev in the project).');
      if (subcommand === 'list') {
        if (words.length > 1) return usage('/mcp list takes no arguments.');
        // Problems in the files (a broken settings.json, a bad entry) explain a server that is missing.
        const workingDir = ctx.workingDir ?? ctx.session?.meta.workingDir;
        const warnings = workingDir ? loadMcpConfig({ home: home(), workspaceRoot: workingDir }).warnings : [];
        return ok([formatServerTable(hub.list(), { command: COMMAND }), ...warnings.map((w) => `Warning: ${w}`)].join('\n'));
      }
      const name = words[1];
      if (!name || words.length > 2) return usage(`Use /mcp ${subcommand} <name>; /mcp list shows the names.`);
      const server = hub.list().find((s) => s.name === name);
      if (!server) return usage(`No MCP server "${name}". ${hub.list().length ? `Configured: ${hub.list().map((s) => s.name).join(', ')}.` : 'None is configured.'}`);
      if (!server.enabled && !['disconnect', 'trust', 'untrust'].includes(subcommand)) return usage(`MCP server "${name}" is disabled; /mcp enable ${name} first.`);
      return inspect(hub, subcommand, name);
    },
  };
}

async function inspect(hub: McpHubApi, subcommand: Subcommand, name: string): Promise<CommandResult> {
  try {
    switch (subcommand) {
      case 'tools':
        return ok(formatToolList(name, await hub.tools(name)));
      case 'test': {
        const result = await hub.test(name);
        return result.ok ? ok(formatTestResult(name, result)) : failed(formatTestResult(name, result));
      }
      case 'connect': {
        const status = await hub.connect(name);
        if (status.state !== 'running') return failed(`MCP server "${name}" did not start (${status.state})${status.error ? `: ${status.error}` : '.'}`);
        return ok(`MCP server "${name}" is running${status.toolCount === undefined ? '' : ` with ${status.toolCount} tool${status.toolCount === 1 ? '' : 's'}`}.`);
      }
      case 'trust':
      case 'untrust': {
        const outcome = await hub.setTrust(name, subcommand === 'trust');
        if (!outcome.ok) return failed(outcome.message);
        const server = hub.list().find((s) => s.name === name);
        return ok(subcommand === 'trust' && server?.trust ? `${outcome.message} /mcp untrust ${name} takes it back.` : outcome.message);
      }
      case 'disconnect':
        await hub.disconnect(name);
        return ok(`MCP server "${name}" is stopped; it starts again when the agent needs one of its tools (or with /mcp connect ${name}).`);
      default:
        return usage(DETAILS);
    }
  } catch (err) {
    return failed(`MCP server "${name}": ${(err as Error).message ?? String(err)}`);
  }
}

async function edit(subcommand: Subcommand, words: string[], ctx: CommandContext, home: () => string): Promise<CommandResult> {
  const workingDir = ctx.workingDir ?? ctx.session?.meta.workingDir;
  const files = mcpConfigFiles(home(), workingDir);
  const outcome = await runMcpEdit(files, subcommand as McpEditSubcommand, words, { command: COMMAND });
  if (!outcome.ok) return outcome.usage ? usage(outcome.message) : failed(outcome.message);
  if (outcome.written.length === 0) return ok(outcome.message);
  const hub = ctx.agent.mcp;
  if (!hub) return ok(`${outcome.message}\nIt takes effect in the next session.`);
  try {
    await hub.reload();
  } catch (err) {
    return failed(`${outcome.message}\nThe servers could not be reloaded (${(err as Error).message}); the change takes effect in the next session.`);
  }
  return ok(outcome.message);
}
