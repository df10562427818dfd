/**
 * A host that runs commands where the user sees them (an ACP client's terminal) instead of in a
 * process of ours. Only a foreground command that runs outside our sandbox goes there (inside it,
 * only our own process can enforce the sandbox and read what it blocked); the danger gate and the
 * approval have already passed when `run` is called.
 */
export interface CommandRunnerPort {
  run(request: HostCommandRequest): Promise<HostCommandOutcome>;
}

export interface HostCommandRequest {
  command: string;
  cwd: string;
  /** Added to the host's environment (our preparation: pagers off, colours off…). */
  env: Record<string, string>;
  /** The command is stopped (and reported as timed out) after this long. */
  timeoutMs: number;
  /** The user stopped the turn: the command is killed. */
  signal: AbortSignal;
}

export interface HostCommandOutcome {
  status: 'exited' | 'timeout' | 'aborted';
  exitCode: number | null;
  signal: string | null;
  /** Everything the host kept of the output (it may have cut the start: `truncated`). */
  output: string;
  truncated: boolean;
}
