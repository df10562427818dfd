import type { CommandTerminalPort, CommandView } from '../host';

/**
 * A CommandTerminalPort over a plain text sink, for the CLI (`--verbose`, to stderr, so stdout stays
 * the answer alone): each foreground command as `$ command`, its output, and how it ended; background
 * tasks only when they start and end (their output stays in their files).
 */
export function createStreamTerminalPort(write: (text: string) => void): CommandTerminalPort {
  const ending = (o: Parameters<CommandView['end']>[0]) =>
    o.status === 'completed' ? 'exit 0' : o.status === 'timeout' ? 'timed out' : o.status === 'killed' ? 'killed' : o.signal ?? `exit ${o.exitCode}`;
  return {
    showCommand({ command }) {
      let atLineStart = true;
      write(`$ ${command}\n`);
      return {
        write(chunk) {
          if (chunk.length === 0) return;
          write(chunk);
          atLineStart = chunk.endsWith('\n');
        },
        end(outcome) {
          write(`${atLineStart ? '' : '\n'}[${ending(outcome)}]\n`);
        },
      };
    },
    showBackgroundTask({ taskId, command }) {
      write(`$ ${command}   [background task ${taskId}]\n`);
      return {
        write() {},
        end(outcome) {
          write(`[background task ${taskId}: ${ending(outcome)}]\n`);
        },
      };
    },
  };
}
