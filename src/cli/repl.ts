import { createInterface } from 'node:readline';
import type { Agent } from '../core/agent/agent';
import type { ModelInfo, SlashCommandRegistry } from '../core/commands/slash-commands';
import type { SessionRecorder } from '../core/session/session-recorder';
import { LineQueue } from '../terminal-ui/line-source';
import { ReplSession } from '../terminal-ui/repl-session';

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
  const lines = new LineQueue();
  const rl = createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: tty,
    historySize: 200,
    completer: tty ? (line: string): [string[], string] => [deps.commands.complete(line), line] : undefined,
  });
  rl.on('line', (line) => lines.push(line));
  rl.on('close', () => lines.end());

  const session = new ReplSession({
    agent: deps.agent,
    input: lines,
    io: {
      write: (text) => process.stdout.write(text),
      ...(tty
        ? {
            prompt: (text: string) => {
              rl.setPrompt(text);
              rl.prompt(true);
            },
          }
        : {}),
    },
    color: tty,
    commands: deps.commands,
    recorder: deps.recorder,
    typeAhead: tty ? 'inject' : 'queue',
    echoInput: !tty,
    models: deps.models,
    front: 'cli',
    greeting: deps.greeting,
  });
  // readline turns Ctrl+C into 'SIGINT' on a terminal; without one the process gets the signal.
  const onSigint = () => session.interrupt();
  rl.on('SIGINT', onSigint);
  process.on('SIGINT', onSigint);
  try {
    return await session.run();
  } finally {
    process.off('SIGINT', onSigint);
    rl.close();
  }
}
