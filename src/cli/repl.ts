import type { Agent } from '../core/agent/agent';
import type { ModelInfo, SlashCommandRegistry } from '../core/commands/slash-commands';
import type { AgentSession } from '../core/session/agent-session';
import { startReadlineRepl } from '../terminal-ui/readline-repl';

export interface ReplDeps {
  /** The run's conversation: its agent, renewed after /clear, and its saving. */
  session: AgentSession<never>;
  commands: SlashCommandRegistry;
  models: readonly ModelInfo[];
  greeting: string;
  /** The agent the run starts with; undefined when it cannot be built (no key): the commands that need no model still run. */
  agent: Agent | undefined;
  /** Tries again when a line needs the agent; says why on stderr and resolves undefined when it still cannot be built. */
  firstAgent: () => Promise<Agent | undefined>;
}

/**
 * The interactive CLI: the terminal-ui REPL over readline on stdin/stdout. With a terminal, lines
 * typed while the agent works are queued into the turn; with piped input they run in order after
 * it (so `printf 'task\n1\n' | opendev` answers the menu with 1). Ctrl+C goes to the session.
 * After /clear the conversation goes on with a new agent (a session of its own, as in VS Code);
 * the session ends with the run (SessionEnd hooks, its servers, a last save).
 */
export async function runRepl(deps: ReplDeps): Promise<number> {
  const { session } = deps;
  const tty = (process.stdin.isTTY ?? false) && (process.stdout.isTTY ?? false);
  const nextAgent = async (reason: 'line' | 'clear', shown: unknown): Promise<{ agent: Agent; models: readonly ModelInfo[] } | undefined> => {
    if (shown === undefined) {
      const agent = await deps.firstAgent();
      return agent && { agent, models: deps.models };
    }
    if (reason !== 'clear' || shown !== session.agent) return undefined;
    let ready;
    try {
      ready = await session.renew();
    } catch (err) {
      process.stderr.write(`opendev: a new agent could not be built (${(err as Error).message}); the new conversation goes on with the one this session had.\n`);
      return undefined;
    }
    return 'agent' in ready ? { agent: ready.agent, models: deps.models } : undefined;
  };
  const repl = startReadlineRepl({
    input: process.stdin,
    output: process.stdout,
    terminal: tty,
    ...(deps.agent ? { agent: deps.agent } : {}),
    commands: deps.commands,
    recorder: session.recorder!,
    models: deps.models,
    front: 'cli',
    greeting: deps.greeting,
    nextAgent,
  });
  // Without a terminal, Ctrl+C reaches the process as a signal.
  const onSigint = () => repl.session.interrupt();
  process.on('SIGINT', onSigint);
  try {
    return await repl.done;
  } finally {
    process.off('SIGINT', onSigint);
    // Not awaited: the exit bounds it (main's finish()).
    void session.dispose();
  }
}
