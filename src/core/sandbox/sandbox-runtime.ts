import { childProcess } from '../lazy-builtins';
import { sandboxRuntimeLibrary } from '../lazy-libraries';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';
import { childEnv } from '../process/child-env';
import { shellCommand } from '../process/process-group';
import { isExecutableFile } from '../process/ripgrep-path';

/**
 * The one door to `@anthropic-ai/sandbox-runtime` (bubblewrap on Linux, Seatbelt on macOS, a
 * filtering proxy for the network). Its manager is one per process, so this module is too: it
 * starts the proxies once with a policy that allows nothing, and every command brings its own
 * filesystem policy and network list (command-sandbox.ts), which lets sessions of different
 * folders share it. The library is ESM and loaded on first use, so activation does not pay for it.
 */
type SandboxModule = typeof import('@anthropic-ai/sandbox-runtime');
type Manager = SandboxModule['SandboxManager'];

/** Whether commands can run sandboxed here, and if not, why and what fixes it. */
export type SandboxAvailability = { available: true } | { available: false; reason: string; fix: string };

export interface SandboxRuntimeOptions {
  /** ripgrep, which the library uses on Linux to find the files a deny pattern names. */
  ripgrep?: string;
  /** bubblewrap when it is not `bwrap` on PATH (`OPENDEV_SANDBOX_BWRAP`). */
  bwrapPath?: string;
}

/** A connection the proxy refused: which host, for which command. */
export interface BlockedConnection {
  host: string;
  port: number;
}

const LINUX_FIX = 'sudo apt-get install bubblewrap socat';

let manager: Promise<{ manager: Manager; availability: SandboxAvailability }> | undefined;

/**
 * Starts the runtime once per process and says whether it works: its own dependency check, then
 * one real command, because a container without user namespaces passes the check and fails there.
 */
export function sandboxRuntime(options: SandboxRuntimeOptions = {}): Promise<{ manager: Manager; availability: SandboxAvailability }> {
  manager ??= start(options);
  return manager;
}

async function start(options: SandboxRuntimeOptions): Promise<{ manager: Manager; availability: SandboxAvailability }> {
  const { SandboxManager } = await sandboxRuntimeLibrary().importSandboxRuntime();
  const unavailable = (reason: string, fix: string) => ({ manager: SandboxManager, availability: { available: false as const, reason, fix } });
  if (process.platform === 'win32') {
    return unavailable("the sandbox library's Windows support is an alpha that needs an administrator install", 'use WSL 2, where commands run sandboxed');
  }
  if (!SandboxManager.isSupportedPlatform()) return unavailable(`${process.platform} has no sandbox the library supports`, process.platform === 'linux' ? 'use WSL 2 instead of WSL 1' : 'none on this system');
  const bwrapPath = options.bwrapPath ?? process.env.OPENDEV_SANDBOX_BWRAP;
  const config: SandboxRuntimeConfig = {
    network: { allowedDomains: [], deniedDomains: [] },
    filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
    ...(options.ripgrep ? { ripgrep: { command: options.ripgrep } } : {}),
    ...(bwrapPath ? { bwrapPath } : {}),
  } as SandboxRuntimeConfig;
  if (bwrapPath && !isExecutableFile(bwrapPath)) return unavailable(`bubblewrap was not found at ${bwrapPath}`, LINUX_FIX);
  const missing = SandboxManager.checkDependencies(options.ripgrep ? { command: options.ripgrep } : undefined).errors;
  if (missing.length > 0) return unavailable(missing.join('; '), process.platform === 'linux' ? LINUX_FIX : 'install the missing programs');
  try {
    // A host no list names is refused, with a reason the model reads in the violation line.
    const deny = (host: string, port: number) => ({ allow: false as const, reason: `${host}:${port} is not in sandbox.network.allow` });
    await SandboxManager.initialize(config, async ({ host, port }) => deny(host, port ?? 0));
  } catch (err) {
    return unavailable(`the sandbox did not start: ${(err as Error).message}`, process.platform === 'linux' ? LINUX_FIX : 'see the error');
  }
  const probe = await probeOnce(SandboxManager);
  if (probe) return unavailable(`a sandboxed command fails here (${probe})`, 'allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; in Docker, run with --security-opt seccomp=unconfined), or set sandbox.enabled to false');
  return { manager: SandboxManager, availability: { available: true } };
}

/** Stops the runtime's proxies and bridges (they keep a process alive): when the host shuts down. */
export async function stopSandboxRuntime(): Promise<void> {
  const running = manager;
  manager = undefined;
  if (running) await (await running).manager.reset().catch(() => undefined);
}

/** Runs `true` in the sandbox; undefined when it worked, else what it printed. */
async function probeOnce(SandboxManager: Manager): Promise<string | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'opendev-sandbox-probe-'));
  try {
    const line = await SandboxManager.wrapWithSandbox('true', shellCommand('').file, { filesystem: { denyRead: [], allowWrite: [dir], denyWrite: [] } });
    const { file, args } = shellCommand(line);
    return await new Promise<string | undefined>((resolve) => {
      const child = childProcess().spawn(file, args, { cwd: dir, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      child.on('error', (err) => resolve(err.message));
      child.on('close', (code) => resolve(code === 0 ? undefined : output.trim().split('\n')[0] || `exit code ${code}`));
    });
  } catch (err) {
    return (err as Error).message;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    SandboxManager.cleanupAfterCommand();
  }
}

/** The connections the proxy refused while the command with this id ran (its violation lines). */
export function blockedConnectionsOf(lines: readonly string[]): BlockedConnection[] {
  const out: BlockedConnection[] = [];
  for (const line of lines) {
    const m = /deny network-outbound (\[[^\]]+\]|[^\s:]+):(\d+)/.exec(line);
    if (m && !out.some((c) => c.host === m[1] && c.port === Number(m[2]))) out.push({ host: m[1]!, port: Number(m[2]) });
  }
  return out;
}
