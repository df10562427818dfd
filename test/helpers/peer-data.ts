// The peers' test material lives beside the repository (`<repo>/../shared/peer/`, which CI has).
// A missing file fails the suite with a clear message: these tests are never skipped.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function peerDataPath(...segments: string[]): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${__dirname}`);
    dir = up;
  }
  const file = join(dir, '..', 'shared', 'peer', ...segments);
  if (!existsSync(file)) throw new Error(`Peer test data is missing: ${file} (expected ../shared/peer/ next to the repository). These tests must not be skipped.`);
  return file;
}

export function readPeerJson<T>(...segments: string[]): T {
  return JSON.parse(readFileSync(peerDataPath(...segments), 'utf8')) as T;
}
