// `node scripts/package/runtime-probe.mjs <unpacked extension folder> <tarballs>`: loads every runtime
// package of an unpacked .vsix the way its bundles do (require and import() from dist/) and uses each
// once: a command in node-pty's terminal, a parse per tree-sitter grammar, the sandbox runtime's
// helpers and certificate code. The packages the extension downloads on first use (unpdf,
// playwright-core) are downloaded by the package's own download bundle from a registry on
// 127.0.0.1 serving `<tarballs>` (JSON: registry path → the registry's .tgz), checked against the
// pins compiled into it, and used: a PDF read, a page rendered and screenshotted in Chromium; a
// tarball with another sha512 is refused. Prints one line per package and exits 1 if any failed.
// Only for a package of this platform.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serveTarballs } from './local-registry.mjs';

const [root, tarballList] = process.argv.slice(2);
if (!root || !tarballList) {
  console.error('usage: runtime-probe.mjs <unpacked extension folder> <tarballs as JSON>');
  process.exit(2);
}
const dist = join(root, 'dist');
const nodeRequire = createRequire(join(dist, 'extension.js'));
// import() resolved from dist/ as the extension bundle's own import() calls are (ESM conditions).
writeFileSync(join(dist, 'runtime-probe-import.mjs'), 'export const load = (name) => import(name);\n');
const { load } = await import(pathToFileURL(join(dist, 'runtime-probe-import.mjs')).href);

/** A resolved module or file must come from `under` (the package), not from anywhere else on the machine. */
function inside(path, what, under = root) {
  const rel = relative(under, path);
  if (isAbsolute(rel) || rel.startsWith('..')) throw new Error(`${what} resolved outside ${under === root ? 'the package' : under}: ${path}`);
  return path;
}

// What the extension does on a feature's first use, with the package's own download code and pins.
const storage = mkdtempSync(join(tmpdir(), 'opendev-probe-storage-'));
const tarballs = Object.fromEntries(Object.entries(JSON.parse(tarballList)).map(([path, file]) => [path, readFileSync(file)]));
const registry = await serveTarballs(tarballs);
const download = nodeRequire('./package-download.js');
inside(nodeRequire.resolve('./package-download.js'), 'the download bundle');

/** Downloads `name` as the extension would and loads it from there; fails if the package carries it itself. */
async function downloaded(name) {
  let carried;
  try {
    carried = nodeRequire.resolve(name);
  } catch {
    // not in the package: as it should be
  }
  if (carried) throw new Error(`the package carries ${name} (${carried}), which it should download on first use`);
  const pin = download.packagePin(name);
  if (!pin) throw new Error(`the download bundle pins no ${name}`);
  const home = await download.ensureDownloaded(pin, { storageDir: storage, registry: registry.url });
  const from = createRequire(join(home, 'package.json'));
  return { pin, module: from(inside(from.resolve(name), name, storage)) };
}

const checks = {
  async 'node-pty'() {
    inside(nodeRequire.resolve('node-pty'), 'node-pty');
    const pty = nodeRequire('node-pty');
    const windows = process.platform === 'win32';
    const term = pty.spawn(windows ? 'cmd.exe' : '/bin/sh', windows ? ['/c', 'echo opendev-probe'] : ['-c', 'echo opendev-probe'], { cols: 80, rows: 24 });
    let output = '';
    term.onData((data) => (output += data));
    const code = await new Promise((resolve) => term.onExit(({ exitCode }) => resolve(exitCode)));
    if (code !== 0 || !output.includes('opendev-probe')) throw new Error(`the command in the terminal exited ${code} with ${JSON.stringify(output)}`);
    return 'ran a command in a pseudo-terminal';
  },

  async '@ast-grep/napi and the grammars'() {
    inside(nodeRequire.resolve('@ast-grep/napi'), '@ast-grep/napi');
    const napi = nodeRequire('@ast-grep/napi');
    const snippets = { bash: 'echo hi', c: 'int x;', cpp: 'int x;', go: 'package main', java: 'class A {}', python: 'x = 1', rust: 'fn main() {}' };
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const langs = Object.keys(manifest.dependencies).filter((n) => n.startsWith('@ast-grep/lang-'));
    const registrations = {};
    for (const name of langs) {
      const registration = nodeRequire(name);
      inside(registration.libraryPath, `${name}'s grammar`);
      registrations[name.slice('@ast-grep/lang-'.length)] = registration;
    }
    napi.registerDynamicLanguage(registrations);
    const parsed = [napi.parse(napi.Lang.TypeScript, 'const x = 1;'), ...Object.keys(registrations).map((lang) => napi.parse(lang, snippets[lang] ?? 'x'))];
    const empty = parsed.findIndex((tree) => tree.root().children().length === 0);
    if (empty >= 0) throw new Error(`parsing with ${empty === 0 ? 'TypeScript' : Object.keys(registrations)[empty - 1]} found nothing`);
    return `parsed TypeScript and ${Object.keys(registrations).join(', ')}`;
  },

  async unpdf() {
    const { PDFDocument, StandardFonts } = await import('pdf-lib');
    const doc = await PDFDocument.create();
    doc.addPage([300, 200]).drawText('opendev probe', { x: 20, y: 150, font: await doc.embedFont(StandardFonts.Helvetica), size: 12 });
    const { pin, module: unpdf } = await downloaded('unpdf');
    const pdf = await unpdf.getDocumentProxy(new Uint8Array(await doc.save()));
    const { text } = await unpdf.extractText(pdf, { mergePages: true });
    if (!text.includes('opendev probe')) throw new Error(`read ${JSON.stringify(text)}`);
    // The same tarball checked against another hash: refused, and nothing of it kept.
    const elsewhere = mkdtempSync(join(tmpdir(), 'opendev-probe-storage-'));
    try {
      const wrong = { ...pin, integrity: `sha512-${Buffer.alloc(64, 1).toString('base64')}` };
      const refused = await download.ensureDownloaded(wrong, { storageDir: elsewhere, registry: registry.url }).then(
        () => undefined,
        (err) => err,
      );
      if (refused?.problem !== 'integrity') throw new Error(`a tarball with another sha512 was not refused (${refused?.message ?? 'it was used'})`);
      if (download.isDownloaded(elsewhere, wrong) || existsSync(download.packageHome(elsewhere, wrong))) throw new Error('the refused tarball was kept');
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
    return `downloaded ${pin.version} and checked it (another sha512 is refused), read the text of a PDF`;
  },

  async 'playwright-core'() {
    const candidates = [process.env.OPENDEV_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'];
    const executablePath = candidates.find((p) => p && existsSync(p));
    if (!executablePath) throw new Error('no Chromium to drive (set OPENDEV_CHROMIUM)');
    const { pin, module: playwright } = await downloaded('playwright-core');
    const browser = await playwright.chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage();
      await page.setContent('<title>probe</title><h1>opendev</h1><p>packaged</p>');
      const heading = await page.locator('h1').textContent();
      const image = await page.screenshot({ type: 'png' });
      if (heading !== 'opendev' || image.readUInt32BE(0) !== 0x89504e47) throw new Error('the page did not render');
    } finally {
      await browser.close();
    }
    return `downloaded ${pin.version} and checked it, rendered a page in Chromium and took a screenshot`;
  },

  async 'the sandbox runtime'() {
    inside(nodeRequire.resolve('@anthropic-ai/sandbox-runtime'), 'the sandbox runtime');
    const runtime = await load('@anthropic-ai/sandbox-runtime');
    if (typeof runtime.SandboxManager?.isSupportedPlatform !== 'function') throw new Error('no SandboxManager');
    const found = [];
    if (process.platform === 'linux') {
      const helper = runtime.getApplySeccompBinaryPath();
      if (!helper) throw new Error('the seccomp helper was not found');
      if ((statSync(inside(helper, 'apply-seccomp')).mode & 0o111) === 0) throw new Error(`${helper} is not executable`);
      found.push('its seccomp helper');
    }
    if (process.platform !== 'win32') {
      const jar = await runtime.getJavaProxyAgentJarPathAsync();
      if (!jar) throw new Error('the JVM proxy agent was not found');
      inside(jar, 'srt-proxy-agent.jar');
      found.push('its JVM proxy agent');
    }
    // Its certificate authority, node-forge's part of the bundle.
    const ca = runtime.generateCa({ validityDays: 2 });
    const valid = runtime.validateCaPair(ca.certPem, ca.keyPem);
    if (!valid.ok) throw new Error(`the CA it made is not valid: ${valid.reason}`);
    found.push('made a certificate authority');
    return ['loaded', ...found].join(', ').replace(/, ([^,]*)$/, ' and $1');
  },
};

let failed = 0;
for (const [name, check] of Object.entries(checks)) {
  try {
    console.log(`ok   ${name}: ${await check()}`);
  } catch (err) {
    failed++;
    console.log(`FAIL ${name}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
await registry.close();
rmSync(storage, { recursive: true, force: true });
process.exit(failed > 0 ? 1 : 0);
