import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { HostPorts } from '../host';

/**
 * Where ripgrep is: the host's own rg (VS Code's bundled one) when it is given and executable,
 * else `rg` on PATH (resolved to an absolute path), else undefined (search falls back to the
 * built-in walker). Looked up on every call: it is a handful of stat calls, and PATH may change.
 */
export function findRipgrep(host?: HostPorts): string | undefined {
  const given = host?.ripgrepPath;
  if (given && isAbsolute(given) && isExecutableFile(given)) return given;
  return findOnPath(process.platform === 'win32' ? ['rg.exe', 'rg.cmd', 'rg'] : ['rg']);
}

function findOnPath(names: readonly string[]): string | undefined {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter((dir) => dir !== '' && isAbsolute(dir));
  for (const dir of dirs) {
    for (const name of names) {
      const candidate = join(dir, name);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

/** A regular file this process may execute. */
export function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
