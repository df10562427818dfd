// The peers' test material, vendored in test/fixtures/peer/ (its README names each case's source and
// license), so a user's clone runs these tests too. A missing file fails the suite with a clear
// message: these tests are never skipped.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Where a peer file is (it may be missing: peerDataPath checks). */
export function peerFixturePath(...segments: string[]): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${__dirname}`);
    dir = up;
  }
  return join(dir, 'test', 'fixtures', 'peer', ...segments);
}

export function peerDataPath(...segments: string[]): string {
  const file = peerFixturePath(...segments);
  if (!existsSync(file)) throw new Error(`Peer test data is missing: ${file} (expected in test/fixtures/peer/). These tests must not be skipped.`);
  return file;
}

export function readPeerJson<T>(...segments: string[]): T {
  return JSON.parse(readFileSync(peerDataPath(...segments), 'utf8')) as T;
}
