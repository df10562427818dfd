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
}

/**
 * The interactive CLI: the terminal-ui REPL over readline on stdin/stdout. With a terminal, lines
 * typed while the agent works are queued into the turn; with piped input they run in order after
 * it (so `printf 'task\n1\n' | opendev` answers the menu with 1). Ctrl+C goes to the session.
 */
export async function runRepl(deps: ReplDeps): Promise<number> {
  const tty = (process.stdin.isTTY ?? false) && (process.stdout.isTTY ?? false);
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
  });
  // Without a terminal, Ctrl+C reaches the process as a signal.
  const onSigint = () => repl.session.interrupt();
  process.on('SIGINT', onSigint);
  try {
    return await repl.done;
  } finally {
    process.off('SIGINT', onSigint);
  }
}
