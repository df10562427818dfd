#!/usr/bin/env node
// `npm start [-- <folder>]` (after `npm run build`): try OpenDev in VS Code on a folder — the one named
// on the command line, else OPENDEV_START_FOLDER, else a copy of the sample workspace.
// With a desktop `code` and a display: an Extension Development Host window. Otherwise (a headless
// machine): the cached VS Code server on 127.0.0.1:8080 (OPENDEV_PORT overrides; 0 picks a free port),
// to open in a browser at the plain address it prints.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cacheDir, copySampleWorkspace, ensureVSCodeServer, repoRoot, startVSCodeServer } from './vscode-server.mjs';

const fail = (message) => {
  console.error(`start: ${message}`);
  process.exit(2);
};

/** The folder to open, checked before anything starts; null for the sample workspace. */
function chosenFolder() {
  const given = process.argv[2] || process.env.OPENDEV_START_FOLDER;
  if (!given) return null;
  // npm runs scripts in the package folder; INIT_CWD is where the user typed `npm start`.
  const folder = resolve(process.env.INIT_CWD || process.cwd(), given);
  if (!existsSync(folder)) fail(`${folder} does not exist (give a folder: npm start -- <folder>, or OPENDEV_START_FOLDER)`);
  if (!statSync(folder).isDirectory()) fail(`${folder} is not a folder (give a folder: npm start -- <folder>, or OPENDEV_START_FOLDER)`);
  return folder;
}

function chosenPort() {
  const raw = process.env.OPENDEV_PORT;
  if (raw === undefined || raw === '') return 8080;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`OPENDEV_PORT=${raw} is no port number (0 picks a free one)`);
  return port;
}

/**
 * Installs the extension into the server's private extensions folder as a link to this repository.
 * Installed (not only passed in a URL's payload), it runs in every window of that server: the plain
 * address, a folder opened with File > Open Folder, a reload. A link, not a .vsix: a reload picks up
 * a new build (`npm run watch`) and nothing is packaged. The folder is made afresh each start: with
 * no extensions.json in it the server scans the folder and registers the link (a stale
 * extensions.json or scan cache could hide a link that changed, e.g. a new version or another clone).
 */
function linkExtension(extensionsDir) {
  if (existsSync(extensionsDir)) {
    // Links first, so removing the folder can never follow one into the repository.
    for (const name of readdirSync(extensionsDir)) {
      if (lstatSync(join(extensionsDir, name)).isSymbolicLink()) unlinkSync(join(extensionsDir, name));
    }
    rmSync(extensionsDir, { recursive: true, force: true });
  }
  mkdirSync(extensionsDir, { recursive: true });
  const { publisher, name, version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  symlinkSync(repoRoot, join(extensionsDir, `${publisher}.${name}-${version}`), 'dir');
}

const userFolder = chosenFolder();
const port = chosenPort();
const tmp = userFolder ? null : mkdtempSync(join(tmpdir(), 'opendev-start-'));
const workspace = userFolder ?? copySampleWorkspace(tmp);
const cleanUp = () => tmp && rmSync(tmp, { recursive: true, force: true });

const hasCode = spawnSync('sh', ['-c', 'command -v code'], { stdio: 'ignore' }).status === 0;
if (hasCode && (process.env.DISPLAY || process.env.WAYLAND_DISPLAY)) {
  // `code` returns at once and the window keeps using the workspace, so a sample copy stays.
  const r = spawnSync('code', [`--extensionDevelopmentPath=${repoRoot}`, workspace], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

// Persistent, so settings and UI state survive restarts; OPENDEV_START_DATA lets a test use its own.
const dataDir = process.env.OPENDEV_START_DATA || join(cacheDir(), 'start-data');
let server;
try {
  linkExtension(join(dataDir, 'extensions'));
  server = await startVSCodeServer({ serverRoot: await ensureVSCodeServer(), port, dataDir, defaultFolder: workspace });
} catch (err) {
  cleanUp();
  console.error(`start: ${err.message}${/in use/.test(err.message) ? ' (OPENDEV_PORT picks another)' : ''}`);
  process.exit(1);
}
// The plain address opens the folder (--default-folder) with the extension installed: nothing to copy but this.
console.log(`OpenDev is running in VS Code at ${server.baseUrl}/ on ${workspace}`);
console.log(`(server log: ${server.logFile}; Ctrl+C to stop)`);

const shutdown = async () => {
  await server.stop();
  cleanUp();
  process.exit(0);
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
