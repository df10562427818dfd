#!/usr/bin/env node
// `npm start` (after `npm run build`): try OpenDev in VS Code on a copy of the sample workspace.
// With a desktop `code` and a display: an Extension Development Host window. Otherwise (a headless
// machine): the cached VS Code server on 127.0.0.1:8080 (OPENDEV_PORT overrides), to open in a browser.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheDir, copySampleWorkspace, ensureVSCodeServer, repoRoot, startVSCodeServer } from './vscode-server.mjs';

const tmp = mkdtempSync(join(tmpdir(), 'opendev-start-'));
const workspace = copySampleWorkspace(tmp);

const hasCode = spawnSync('sh', ['-c', 'command -v code'], { stdio: 'ignore' }).status === 0;
if (hasCode && (process.env.DISPLAY || process.env.WAYLAND_DISPLAY)) {
  // `code` returns at once and the window keeps using the workspace, so the copy stays.
  const r = spawnSync('code', [`--extensionDevelopmentPath=${repoRoot}`, workspace], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

const port = Number(process.env.OPENDEV_PORT) || 8080;
let server;
try {
  server = await startVSCodeServer({
    serverRoot: await ensureVSCodeServer(),
    port,
    // Persistent, so settings and UI state survive restarts.
    dataDir: join(cacheDir(), 'start-data'),
  });
} catch (err) {
  rmSync(tmp, { recursive: true, force: true });
  console.error(`start: ${err.message}${/in use/.test(err.message) ? ' (OPENDEV_PORT picks another)' : ''}`);
  process.exit(1);
}
console.log(`OpenDev is running in VS Code at ${server.workbenchUrl({ folder: workspace, extensionDevelopmentPath: repoRoot })}`);
console.log(`(server log: ${server.logFile}; Ctrl+C to stop)`);

const shutdown = async () => {
  await server.stop();
  rmSync(tmp, { recursive: true, force: true });
  process.exit(0);
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
