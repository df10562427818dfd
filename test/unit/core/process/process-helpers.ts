import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';

export { running, until } from '../../../helpers/wait';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/** Whether something accepts connections on 127.0.0.1:port. */
export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** What the fake profile exports as OPENAI_API_KEY and DEPLOY_TOKEN: it must never reach a command. */
export const PROFILE_SECRET = 'sk-canary-profile-5e2b';

/** A home whose .profile puts ~/tools first on PATH, exports a marker and secrets, and sources .bashrc (as Debian's does). */
export function fakeHome(root: string, extraProfile = ''): string {
  const home = join(root, 'home');
  mkdirSync(join(home, 'tools'), { recursive: true });
  writeFileSync(join(home, 'tools', 'hello-from-profile'), '#!/bin/sh\necho "tool from the profile PATH"\n');
  chmodSync(join(home, 'tools', 'hello-from-profile'), 0o755);
  writeFileSync(
    join(home, '.profile'),
    [
      extraProfile,
      'export PATH="$HOME/tools:$PATH"',
      'export OPENDEV_PROFILE_MARKER=from-profile',
      `export OPENAI_API_KEY=${PROFILE_SECRET}`,
      `export DEPLOY_TOKEN=${PROFILE_SECRET}`,
      'export CAPTURED_IN="$PWD"',
      'echo "a profile that prints something"',
      '[ -f "$HOME/.bashrc" ] && . "$HOME/.bashrc"',
      '',
    ].join('\n'),
  );
  writeFileSync(join(home, '.bashrc'), 'export OPENDEV_RC_MARKER=from-bashrc\nalias ll="ls -l"\n');
  return home;
}
