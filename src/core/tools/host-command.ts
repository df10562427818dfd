// A foreground command run by the host (an ACP client's terminal, where the user watches it), as
// the outcome run_command reports for one of our own processes: the same cleaning of terminal
// text, the same head-and-tail budget, the same timeouts and interrupt.
import type { CommandRunnerPort } from '../command-runner-port';
import type { ForegroundOutcome } from '../process/foreground-runner';
import type { ProcessLimits } from '../process/process-manager';
import { TerminalTextCleaner } from '../process/terminal-text';

export async function runInHost(
  runner: CommandRunnerPort,
  request: { command: string; cwd: string; env: Record<string, string>; timeoutMs: number | undefined; signal: AbortSignal },
  limits: ProcessLimits,
): Promise<ForegroundOutcome> {
  const absoluteMs = Math.min(request.timeoutMs ?? limits.absoluteMs, limits.maxAbsoluteMs);
  const started = Date.now();
  const outcome = await runner.run({ command: request.command, cwd: request.cwd, env: request.env, timeoutMs: absoluteMs, signal: request.signal });
  const cleaner = new TerminalTextCleaner();
  const clean = cleaner.push(outcome.output) + cleaner.flush();
  const { text, cut } = headAndTail(clean, limits.outputHeadChars, limits.outputTailChars);
  const output = outcome.truncated ? `[the editor kept only the end of the output]\n${text}` : text;
  return {
    status: outcome.status,
    exitCode: outcome.exitCode,
    signal: (outcome.signal as NodeJS.Signals | null) ?? null,
    output,
    lines: clean === '' ? 0 : clean.replace(/\n$/, '').split('\n').length,
    chars: clean.length,
    truncated: outcome.truncated || cut,
    durationMs: Date.now() - started,
    // The editor's terminal has no silence limit of ours: only the absolute one applies.
    idleMs: absoluteMs,
    absoluteMs,
    strays: false,
  };
}

function headAndTail(text: string, head: number, tail: number): { text: string; cut: boolean } {
  if (text.length <= head + tail) return { text, cut: false };
  const omitted = text.length - head - tail;
  return { text: `${text.slice(0, head)}\n… [${omitted} chars omitted] …\n${text.slice(-tail)}`, cut: true };
}
