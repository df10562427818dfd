// run_command in the client's terminal (terminal/create, wait_for_exit, terminal/output, release):
// the editor shows the command as it runs, on the tool call that carries its terminal. The danger
// gate and the approval have passed before it gets here, and only commands that run outside our
// sandbox come here (run_command keeps sandboxed ones in our own process: the client's terminal
// cannot hold a command in our sandbox, nor tell us what the sandbox blocked).
import type { AgentContext, TerminalHandle } from '@agentclientprotocol/sdk';
import type { CommandRunnerPort, HostCommandOutcome, HostCommandRequest } from '../core/command-runner-port';
import type { AcpTurnUI } from './acp-turn-ui';

/** What the client keeps of the output (it drops the start beyond it); the model sees head and tail of that. */
const OUTPUT_BYTE_LIMIT = 1024 * 1024;

export function clientCommandRunner(client: AgentContext, bridge: { session(): string; ui: AcpTurnUI | undefined }, shell: string | undefined): CommandRunnerPort {
  return {
    async run(request) {
      const terminal = await client.createTerminal({
        sessionId: bridge.session(),
        ...shellLine(request.command, shell),
        cwd: request.cwd,
        env: Object.entries(request.env).map(([name, value]) => ({ name, value })),
        outputByteLimit: OUTPUT_BYTE_LIMIT,
      });
      try {
        bridge.ui?.showTerminal(request.command, terminal.id);
        return await outcomeOf(terminal, request);
      } finally {
        // Released once its output is read; the tool call that shows it keeps showing it.
        await terminal.release().catch(() => undefined);
      }
    },
  };
}

/** A shell runs the line, as our own runner does (pipes, &&, globs): the user's shell, else sh. */
function shellLine(command: string, shell: string | undefined): { command: string; args: string[] } {
  if (process.platform === 'win32') return { command: 'cmd.exe', args: ['/d', '/s', '/c', command] };
  return { command: shell || '/bin/sh', args: ['-c', command] };
}

async function outcomeOf(terminal: TerminalHandle, request: HostCommandRequest): Promise<HostCommandOutcome> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<'timeout' | 'aborted'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), request.timeoutMs);
    onAbort = () => resolve('aborted');
    if (request.signal.aborted) onAbort();
    else request.signal.addEventListener('abort', onAbort, { once: true });
  });
  let exit: { exitCode?: number | null; signal?: string | null } | undefined;
  let status: HostCommandOutcome['status'];
  try {
    const ended = await Promise.race([terminal.waitForExit().then((e) => ({ exited: e })), stopped]);
    if (typeof ended === 'string') {
      status = ended;
      await terminal.kill().catch(() => undefined);
    } else {
      status = 'exited';
      exit = ended.exited;
    }
  } finally {
    clearTimeout(timer);
    if (onAbort) request.signal.removeEventListener('abort', onAbort);
  }
  const output = await terminal.currentOutput();
  const final = exit ?? output.exitStatus ?? undefined;
  return { status, exitCode: final?.exitCode ?? null, signal: final?.signal ?? null, output: output.output, truncated: output.truncated };
}
