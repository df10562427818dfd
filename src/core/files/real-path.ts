import { readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

/*
 * Where a path really leads, symbolic links followed: what the workspace boundary, the read tools
 * and the secret locations judge, so a link inside the workspace is no way out of it.
 */

/** Links followed in a chain of dangling links before giving up (the kernel's own limit is 40). */
const MAX_LINKS = 40;

/** The real path of `path`, or `path` resolved when it does not exist. */
export function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * The real path of the nearest existing ancestor, with the missing rest appended. A dangling link
 * is followed to where it points (writing through it would create its target there).
 */
export function realNearest(path: string): string {
  return nearest(resolve(path), 0);
}

function nearest(path: string, links: number): string {
  let current = path;
  const missing: string[] = [];
  for (;;) {
    try {
      return resolve(realpathSync(current), ...[...missing].reverse());
    } catch {
      const target = links < MAX_LINKS ? linkTarget(current) : undefined;
      if (target !== undefined) return nearest(resolve(dirname(current), target, ...[...missing].reverse()), links + 1);
      const parent = dirname(current);
      if (parent === current) return path;
      missing.push(basename(current));
      current = parent;
    }
  }
}

function linkTarget(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}
