/**
 * node-pty, loaded at run time (it is a native module, external to the bundle). Background tasks
 * run in a pseudo-terminal so programs behave as they do for a user (line-buffered output, colours,
 * progress bars); when node-pty cannot load, they fall back to pipes.
 */
export interface PtyProcess {
  readonly pid: number;
  onData(listener: (data: string) => void): { dispose(): void };
  onExit(listener: (e: { exitCode: number; signal?: number }) => void): { dispose(): void };
  write(data: string): void;
  resize(cols: number, rows: number): void;
  kill(signal?: string): void;
}

export interface PtyModule {
  spawn(
    file: string,
    args: string[],
    options: { name?: string; cols?: number; rows?: number; cwd?: string; env?: Record<string, string> },
  ): PtyProcess;
}

export type PtyLoad = { ok: true; pty: PtyModule; from: string } | { ok: false; error: string };

const cache = new Map<string, PtyLoad>();

/**
 * Tries `node-pty` as the bundle resolves it, then each extra path (VS Code ships its own node-pty
 * under its app root). The result is cached per list of paths.
 */
export function loadPty(extraPaths: readonly string[] = []): PtyLoad {
  const key = extraPaths.join('\0');
  const cached = cache.get(key);
  if (cached) return cached;
  const errors: string[] = [];
  let result: PtyLoad | undefined;
  for (const candidate of ['node-pty', ...extraPaths]) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const mod = require(candidate) as Partial<PtyModule>;
      if (typeof mod.spawn !== 'function') throw new Error('it has no spawn()');
      result = { ok: true, pty: mod as PtyModule, from: candidate };
      break;
    } catch (err) {
      errors.push(`${candidate}: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  result ??= { ok: false, error: errors.join('; ') };
  cache.set(key, result);
  return result;
}
