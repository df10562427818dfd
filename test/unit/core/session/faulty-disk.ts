// A disk that fails the way real ones do, for the session tests: the store's file handles come from
// `fs.promises.open`, which is swapped for the duration of `run` (the store reads it at call time).
import fsPromises = require('node:fs/promises');

export type Fault =
  /** Writes to a matching file write half of what they were given, then fail (a disk filling up mid-write). */
  | { kind: 'write'; code: 'ENOSPC' | 'EDQUOT'; match: (path: string) => boolean }
  /** Opening a matching file fails (no permission, read-only file system). */
  | { kind: 'open'; code: 'EACCES' | 'EROFS' | 'ENOSPC'; match: (path: string) => boolean };

export async function withFaultyDisk<T>(faults: Fault[], run: () => Promise<T>): Promise<T> {
  const realOpen = fsPromises.open;
  const fs = fsPromises as { open: typeof fsPromises.open };
  fs.open = (async (path: Parameters<typeof fsPromises.open>[0], ...rest: unknown[]) => {
    const file = String(path);
    const openFault = faults.find((f) => f.kind === 'open' && f.match(file));
    if (openFault) throw errno(openFault.code, 'open', file);
    const handle = await (realOpen as (...args: unknown[]) => Promise<fsPromises.FileHandle>)(path, ...rest);
    const writeFault = faults.find((f) => f.kind === 'write' && f.match(file));
    if (!writeFault) return handle;
    return new Proxy(handle, {
      get(target, key) {
        if (key === 'write') {
          return async (buffer: Buffer, offset = 0, length = buffer.length - offset, position?: number) => {
            const half = Math.max(1, Math.floor(length / 2));
            await target.write(buffer, offset, half, position);
            throw errno(writeFault.code, 'write', file);
          };
        }
        if (key === 'writeFile') {
          return async (data: string) => {
            await target.write(data.slice(0, Math.floor(data.length / 2)));
            throw errno(writeFault.code, 'write', file);
          };
        }
        const value = Reflect.get(target, key) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  }) as typeof fsPromises.open;
  try {
    return await run();
  } finally {
    fs.open = realOpen;
  }
}

function errno(code: string, syscall: string, path: string): NodeJS.ErrnoException {
  const messages: Record<string, string> = {
    ENOSPC: 'no space left on device',
    EDQUOT: 'disk quota exceeded',
    EACCES: 'permission denied',
    EROFS: 'read-only file system',
  };
  return Object.assign(new Error(`${code}: ${messages[code] ?? code}, ${syscall} '${path}'`), { code, syscall, path });
}
