import { readline } from '../core/lazy-builtins';
import { createSlashCommands } from '../core/commands/slash-commands';
import { LineQueue } from './line-source';
import { ReplSession, type ReplOptions } from './repl-session';

export interface ReadlineReplOptions extends Omit<ReplOptions, 'input' | 'io' | 'color' | 'typeAhead' | 'echoInput'> {
  /** Keystrokes (a terminal) or lines (a pipe): process.stdin in the CLI, the pseudoterminal's input in VS Code. */
  input: NodeJS.ReadableStream;
  /** Where everything is written; its `columns` (and 'resize' events) let readline wrap long lines. */
  output: NodeJS.WritableStream & { columns?: number };
  /**
   * A person at a keyboard: line editing and history (arrows, backspace, Ctrl+A/E/U…), colours,
   * Tab completion of slash commands, Shift+Tab for plan mode, and lines typed while the agent
   * works join its turn. Otherwise (piped input) lines are read in order and echoed.
   */
  terminal: boolean;
}

export interface ReadlineRepl {
  readonly session: ReplSession;
  /** The exit code, once the session has ended (/exit, Ctrl+C twice, end of input, close()). */
  readonly done: Promise<number>;
  /** Ends the input: the session finishes what it is doing and returns. */
  close(): void;
}

/** The escape sequence terminals send for Shift+Tab (readline decodes it as a shifted tab). */
const isShiftTab = (key: { name?: string; shift?: boolean } | undefined) => key?.name === 'tab' && key.shift === true;

/**
 * The interactive session over a pair of streams, with Node's readline doing the line editing:
 * the one front end behind both the CLI (stdin/stdout) and the OpenDev terminal in VS Code (a
 * pseudoterminal's keystrokes and output). Ctrl+C goes to the session; so does Shift+Tab.
 */
export function startReadlineRepl(options: ReadlineReplOptions): ReadlineRepl {
  const { input, output, terminal, ...rest } = options;
  const commands = rest.commands ?? createSlashCommands();
  const lines = new LineQueue();
  const rl = readline().createInterface({
    input,
    output,
    terminal,
    historySize: 200,
    completer: terminal ? (line: string): [string[], string] => [commands.complete(line), line] : undefined,
  });
  rl.on('line', (line) => lines.push(line));
  rl.on('close', () => lines.end());

  const session = new ReplSession({
    ...rest,
    commands,
    input: lines,
    io: {
      write: (text) => void output.write(text),
      ...(terminal
        ? {
            prompt: (text: string) => {
              rl.setPrompt(text);
              rl.prompt(true);
            },
          }
        : {}),
    },
    color: terminal,
    ...(terminal ? { columns: () => output.columns } : {}),
    typeAhead: terminal ? 'inject' : 'queue',
    echoInput: !terminal,
  });
  // With a terminal, readline turns Ctrl+C into 'SIGINT' (the host forwards a real signal itself).
  rl.on('SIGINT', () => session.interrupt());
  // readline emits 'keypress' on its input (terminal mode) and ignores Shift+Tab itself.
  const onKeypress = (_text: string | undefined, key: { name?: string; shift?: boolean } | undefined) => {
    if (isShiftTab(key)) session.toggleMode();
  };
  if (terminal) input.on('keypress', onKeypress);
  const done = session.run().finally(() => {
    input.removeListener('keypress', onKeypress);
    rl.close();
  });
  return { session, done, close: () => rl.close() };
}
