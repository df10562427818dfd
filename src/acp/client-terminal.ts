// run_command in the client's terminal (terminal/create, wait_for_exit, terminal/output, release):
// the editor shows the command as it runs, on the tool call that carries its terminal. The danger
// gate and the approval have passed before it gets here, and only commands that run outside our
// sandbox come here (run_command keeps sandboxed ones in our own process: the client's terminal
// cannot hold a command in our sandbox, nor tell us what the sandbox blocked).
import type { AgentContext, TerminalHandle } from '@agentclientprotocol/sdk';
import type { CommandRunnerPort, HostCommandOutcome, HostCommandRequest } from '../core/command-runner-port';
import { BUILTIN_SECRET_ENV, isSecretEnvName } from '../core/process/child-env';
import type { AcpTurnUI } from './acp-turn-ui';

/** What the client keeps of the output (it drops the start beyond it); the model sees head and tail of that. */
const OUTPUT_BYTE_LIMIT = 1024 * 1024;

/**
 * `env`: the environment `opendev acp` was started with (the editor's, keys included): its SHELL,
 * and the names of its secret variables, which the command gets empty.
 */
export function clientCommandRunner(client: AgentContext, bridge: { session(): string; ui: AcpTurnUI | undefined }, env: NodeJS.ProcessEnv): CommandRunnerPort {
  return {
    async run(request) {
      const terminal = await client.createTerminal({
        sessionId: bridge.session(),
        ...shellLine(request.command, env.SHELL),
        cwd: request.cwd,
        env: Object.entries({ ...blankSecrets(env), ...request.env }).map(([name, value]) => ({ name, value })),
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

/**
 * The editor's terminal runs with the editor's environment, which may hold the keys our own children
 * never see (child-env.ts). The protocol can set variables, not unset them: each secret one the
 * editor is likely to have (the built-in names, and the secret names of the environment we were
 * started with) is set to empty.
 */
function blankSecrets(env: NodeJS.ProcessEnv): Record<string, string> {
  const names = [...BUILTIN_SECRET_ENV.filter((n) => !n.includes('*')), ...Object.keys(env).filter(isSecretEnvName)];
  return Object.fromEntries(names.map((name) => [name, '']));
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
