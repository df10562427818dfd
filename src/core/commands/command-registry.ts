// The slash-command registry and its types. `slash-commands.ts` is the entry point other code imports.
import type { Agent } from '../agent/agent';
import type { ModelInfo } from '../config/model-role-settings';
import type { McpHubApi } from '../mcp/mcp-types';
import type { CommandSandbox } from '../sandbox/command-sandbox';
import type { SessionRecord, SessionStore } from '../session/session-store';
import type { UICallback } from '../ui';

/** The part of the agent commands use (a structural subset, so tests and other hosts can stand in). */
export type CommandAgent = Pick<
  Agent,
  'mode' | 'setMode' | 'thinkingLevel' | 'setThinkingLevel' | 'messages' | 'clear' | 'todos' | 'cost' | 'subagentTypes' | 'toolNames' | 'running'
> &
  // Optional: a host whose agent cannot compact (/compact) or undo (/undo), or has no skills (/skills), says so.
  Partial<Pick<Agent, 'compact' | 'undo' | 'undoHistory' | 'skills'>> &
  // The session's MCP servers (/mcp) and command sandbox (/sandbox); absent where the agent has none.
  { mcp?: McpHubApi | undefined; sandbox?: CommandSandbox | undefined };

/** One configured model, for /models. */
export interface CommandContext {
  agent: CommandAgent;
  sessions?: SessionStore;
  /** The session being written, when one exists yet. */
  session?: SessionRecord;
  front: 'cli' | 'vscode';
  /** The project folder (for /sessions); defaults to the session's. */
  workingDir?: string;
  /** The configured models (for /models). */
  models?: readonly ModelInfo[];
  /** Asks the user (the chat's question card, the terminal's menu); absent where nobody can answer (-p). */
  askUser?: UICallback['askUser'];
}

/**
 * What a command that needs no model gets (/help, /models, /config…): the agent when there is
 * one, else none, so it works before a key is set. Never a stand-in agent.
 */
export type KeylessContext = Omit<CommandContext, 'agent'> & { agent?: CommandAgent };

export interface CommandResult {
  /** What to show the user (may be several lines; no trailing newline needed). */
  output: string;
  /** Run this text as a prompt next (e.g. `/plan <task>`). */
  runPrompt?: string;
  /** The front end should end the session (/exit). */
  exit?: boolean;
  clearScreen?: boolean;
  /** The conversation was cleared: the next turn belongs to a new session. */
  newSession?: boolean;
  /** `usage`: unknown command or bad arguments (exit 2 in -p); `unavailable`: not built yet (exit 1 in -p). */
  error?: 'usage' | 'unavailable';
}

export interface SlashCommand {
  /** Without the slash. */
  name: string;
  summary: string;
  /** e.g. `/thinking [off|low|medium|high]`. */
  usage: string;
  /** Values the first argument may take, for completion. */
  argChoices?: readonly string[];
  /** Safe to run while the agent is working (it does not change the conversation). */
  whileRunning?: boolean;
  /** False for commands that are listed but not built yet. */
  available?: boolean;
  run(args: string, ctx: CommandContext): Promise<CommandResult>;
  /** Set (by `keyless()`) on a command that runs without an agent: no key, no model needed. */
  keyless?: (args: string, ctx: KeylessContext) => Promise<CommandResult>;
}

/** A command that needs no agent: it runs the same with one or without (before a key is set). */
export function keyless(spec: Omit<SlashCommand, 'run' | 'keyless'> & { run(args: string, ctx: KeylessContext): Promise<CommandResult> }): SlashCommand {
  const run = (args: string, ctx: KeylessContext) => spec.run(args, ctx);
  return { ...spec, run, keyless: run };
}

/** `/name args…` → its parts; undefined when the text is not a command. `//text` is not a command (see `escapedPrompt`). */
export function parseSlashCommand(text: string): { name: string; args: string } | undefined {
  if (!text.startsWith('/') || text.startsWith('//')) return undefined;
  const body = text.slice(1).trim();
  const space = body.search(/\s/);
  return space < 0 ? { name: body.toLowerCase(), args: '' } : { name: body.slice(0, space).toLowerCase(), args: body.slice(space + 1).trim() };
}

/** A prompt that starts with `//` is sent to the model with one slash removed (`//etc/hosts …`). */
export function escapedPrompt(text: string): string {
  return text.startsWith('//') ? text.slice(1) : text;
}

export function isSlashCommand(text: string): boolean {
  return parseSlashCommand(text) !== undefined;
}

export class SlashCommandRegistry {
  private readonly commands = new Map<string, SlashCommand>();

  register(...commands: SlashCommand[]): this {
    for (const c of commands) this.commands.set(c.name, c);
    return this;
  }

  get(name: string): SlashCommand | undefined {
    return this.commands.get(name.replace(/^\//, '').toLowerCase());
  }

  list(): SlashCommand[] {
    return [...this.commands.values()];
  }

  /**
   * Whether a command line needs the agent (and so a model and its key). Unknown commands and
   * keyless ones do not: a front end runs them without building one.
   */
  needsAgent(text: string): boolean {
    const parsed = parseSlashCommand(text);
    const command = parsed && this.commands.get(parsed.name);
    return command ? !command.keyless : false;
  }

  /**
   * Runs a command line (`/mode plan`). Unknown commands and thrown errors become a `usage` error
   * result; without an agent, a command that needs one is `unavailable` (front ends build the agent
   * first when `needsAgent` says so).
   */
  async run(text: string, ctx: KeylessContext): Promise<CommandResult> {
    const parsed = parseSlashCommand(text);
    if (!parsed) return { output: `Not a command: ${text}`, error: 'usage' };
    const command = this.commands.get(parsed.name);
    if (!command) return { output: this.unknown(parsed.name), error: 'usage' };
    try {
      if (ctx.agent) return await command.run(parsed.args, { ...ctx, agent: ctx.agent });
      if (command.keyless) return await command.keyless(parsed.args, ctx);
      return { output: `/${command.name} needs the model, which is not set up yet.`, error: 'unavailable' };
    } catch (err) {
      return { output: `/${command.name} failed: ${(err as Error).message ?? String(err)}`, error: 'usage' };
    }
  }

  /**
   * Completions of a partial command line: command names for `/th`, argument values for
   * `/thinking h`. Full lines, sorted; empty when nothing matches or the text is not a command.
   */
  complete(prefix: string): string[] {
    if (!prefix.startsWith('/') || prefix.startsWith('//')) return [];
    const body = prefix.slice(1);
    const space = body.indexOf(' ');
    if (space < 0) {
      const start = body.toLowerCase();
      return this.list()
        .map((c) => `/${c.name}`)
        .filter((n) => n.startsWith(`/${start}`))
        .sort();
    }
    const command = this.commands.get(body.slice(0, space).toLowerCase());
    const arg = body.slice(space + 1).trimStart().toLowerCase();
    if (!command?.argChoices || arg.includes(' ')) return [];
    return command.argChoices.filter((c) => c.startsWith(arg)).map((c) => `/${command.name} ${c}`);
  }

  private unknown(name: string): string {
    const names = this.list().map((c) => `/${c.name}`);
    const close = names.filter((n) => name && (n.slice(1).startsWith(name.slice(0, 2)) || name.startsWith(n.slice(1))));
    const hint = close.length > 0 ? ` Did you mean ${close.join(' or ')}?` : '';
    const label = name ? `/${name}` : '/';
    return `Unknown command ${label}.${hint}\nCommands: ${names.join(', ')}. Type /help for details; start a message with // to send a leading slash to the agent.`;
  }
}
