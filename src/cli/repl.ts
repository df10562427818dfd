import type { Agent } from '../core/agent/agent';
import type { ModelInfo, SlashCommandRegistry } from '../core/commands/slash-commands';
import type { SessionRecorder } from '../core/session/session-recorder';
import { startReadlineRepl } from '../terminal-ui/readline-repl';

export interface ReplDeps {
  agent: Agent;
  recorder: SessionRecorder;
  commands: SlashCommandRegistry;
  models: readonly ModelInfo[];
  greeting: string;
  /** A fresh agent, with a session id of its own, for the conversation /clear starts; absent: /clear keeps the agent. */
  newAgent?: () => Promise<Agent>;
  /** Stops the recorder following `agent` (it was replaced after /clear). */
  unfollow?: () => void;
}

/**
 * The interactive CLI: the terminal-ui REPL over readline on stdin/stdout. With a terminal, lines
 * typed while the agent works are queued into the turn; with piped input they run in order after
 * it (so `printf 'task\n1\n' | opendev` answers the menu with 1). Ctrl+C goes to the session.
 * After /clear the conversation goes on with a new agent (a session of its own, as in VS Code);
 * the session ends with the run: the agent in use then is disposed (SessionEnd hooks, its servers).
 */
export async function runRepl(deps: ReplDeps): Promise<number> {
  const tty = (process.stdin.isTTY ?? false) && (process.stdout.isTTY ?? false);
  let current = deps.agent;
  let unfollow = deps.unfollow;
  const nextAgent = async (reason: 'line' | 'clear', shown: unknown): Promise<{ agent: Agent; models: readonly ModelInfo[] } | undefined> => {
    if (reason !== 'clear' || !deps.newAgent || shown !== current) return undefined;
    let fresh: Agent;
    try {
      fresh = await deps.newAgent();
    } catch (err) {
      process.stderr.write(`opendev: a new agent could not be built (${(err as Error).message}); the new conversation goes on with the one this session had.\n`);
      return undefined;
    }
    const previous = current;
    fresh.setThinkingLevel(previous.thinkingLevel); // a /thinking choice holds for the whole run
    fresh.clear({ after: previous }); // SessionStart hooks hear that this session began with /clear, after the old one's SessionEnd
    unfollow?.();
    unfollow = deps.recorder.follow(fresh);
    current = fresh;
    void previous.dispose().catch(() => undefined);
    return { agent: fresh, models: deps.models };
  };
  const repl = startReadlineRepl({
    input: process.stdin,
    output: process.stdout,
    terminal: tty,
    agent: deps.agent,
    commands: deps.commands,
    recorder: deps.recorder,
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
    void current.dispose().catch(() => undefined);
  }
}
