import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * `npm run package`: one .vsix per platform, carrying only what runs there, and checked before it
 * is kept: unpacked, what the loaders look for is there in the platform's format, and (for this
 * machine's platform) every runtime package loads and works from it.
 */

const repo = join(__dirname, '../../../..');
const load = <T>(module: string) => import(pathToFileURL(join(repo, 'scripts', module)).href) as Promise<T>;

interface Target {
  platform: string;
  arch: string;
  napi: string;
  grammars: string;
  pty: 'build' | 'prebuild';
  seccomp?: string;
}
interface RuntimePackage {
  name: string;
  nativeOf?: string;
  keep(file: string): boolean;
}
interface Targets {
  TARGETS: Record<string, Target>;
  hostTarget(): string | undefined;
}

describe('npm run package', function () {
  this.timeout(600_000);

  it('makes this platform’s .vsix: declared for it, within budget, its runtime packages working from it unpacked', async () => {
    const { hostTarget } = await load<Targets>('package/targets.mjs');
    const host = hostTarget();
    assert.ok(host, `${process.platform}-${process.arch} is a platform OpenDev packages for`);
    const out = mkdtempSync(join(tmpdir(), 'opendev-vsix-'));
    try {
      const run = spawnSync(process.execPath, [join(repo, 'scripts/package.mjs'), '--out', out], { cwd: repo, encoding: 'utf8' });
      assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
      const version = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version;
      assert.deepEqual(readdirSync(out), [`opendev-${host}-${version}.vsix`]);
      for (const part of ['node-pty', '@ast-grep/napi and the grammars', 'the sandbox runtime']) {
        assert.match(run.stdout, new RegExp(`ok +${part.replace(/[/]/g, '\\/')}:`), `${part} works from the unpacked package:\n${run.stdout}`);
      }
      // Not in the package: downloaded by its own download code (from 127.0.0.1), checked against its pins, used.
      assert.match(run.stdout, /ok +unpdf: downloaded \d+\.\d+\.\d+ and checked it \(another sha512 is refused\), read the text of a PDF/);
      assert.match(run.stdout, /ok +playwright-core: downloaded \d+\.\d+\.\d+ and checked it, rendered a page in Chromium/);
      assert.match(run.stdout, /ok +the sandbox runtime: .*made a certificate authority/);
      const bytes = Number(/\.vsix: [\d.]+ MiB, ([\d,]+) bytes/.exec(run.stdout)?.[1]?.replace(/,/g, ''));
      assert.ok(bytes > 0 && bytes < 5_000_000, `under 5,000,000 bytes: ${bytes}`);
      assert.match(run.stdout, /dist\/webview\.js \d+(\.\d)? KiB/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('lists for each platform its own native builds and nothing of another, nor types, maps, tests or CLIs', async () => {
    const { TARGETS } = await load<Targets>('package/targets.mjs');
    const { runtimePackages } = await load<{ runtimePackages(t: Target, root: string): RuntimePackage[] }>('package/files.mjs');
    const { binaryFormat } = await load<{ binaryFormat(file: string): { platform: string; arch: string } | undefined }>('package/binary-format.mjs');
    const { ON_DEMAND_PACKAGES } = await load<{ ON_DEMAND_PACKAGES: string[] }>('on-demand-packages.mjs');
    for (const [name, target] of Object.entries(TARGETS)) {
      const listed = runtimePackages(target, repo).map((p) => p.name);
      assert.deepEqual(listed.filter((p) => ON_DEMAND_PACKAGES.includes(p)), [], `${name} leaves out what the extension downloads on first use`);
      const kept: string[] = [];
      // The platform packages of @ast-grep/napi are fetched for other platforms: not looked at here.
      for (const pkg of runtimePackages(target, repo).filter((p) => !p.nativeOf)) {
        const dir = join(repo, 'node_modules', pkg.name);
        for (const file of walk(dir)) {
          const rel = relative(dir, file).split(sep).join('/');
          if (pkg.keep(rel)) kept.push(`${pkg.name}/${rel}`);
        }
      }
      // node-pty's Linux addon is compiled by npm on the machine that packages, for that machine only.
      const builtHere = name === `${process.platform}-${process.arch}`;
      if (target.pty === 'build') assert.ok(kept.includes('node-pty/build/Release/pty.node'), `${name} carries node-pty's compiled addon`);
      const binaries = kept.filter((f) => (builtHere || !f.startsWith('node-pty/build/')) && binaryFormat(join(repo, 'node_modules', f)));
      for (const file of binaries) assert.deepEqual(binaryFormat(join(repo, 'node_modules', file)), { platform: target.platform, arch: target.arch }, `${name}: ${file}`);
      const expected = [
        ...(target.pty === 'build' ? [] : [`node-pty/prebuilds/${name}/pty.node`]),
        ...(target.platform === 'darwin' ? [`node-pty/prebuilds/${name}/spawn-helper`] : []),
        ...(target.platform === 'win32' ? [`node-pty/prebuilds/${name}/winpty-agent.exe`] : []),
        ...(target.seccomp ? [`@anthropic-ai/sandbox-runtime/vendor/seccomp/${target.seccomp}/apply-seccomp`] : []),
        ...['bash', 'c', 'cpp', 'go', 'java', 'python', 'rust'].map((lang) => `@ast-grep/lang-${lang}/prebuilds/prebuild-${target.grammars}/parser.so`),
      ];
      for (const file of expected) assert.ok(kept.includes(file), `${name} carries ${file}`);
      const leftOut = kept.filter((f) => /\.d\.[cm]?ts$|\.map$|\.test\.js$|\.pdb$|\/(README|CHANGELOG)[^/]*$|\/cli\.js$|\/lib\/vite\/|\/src\//i.test(f));
      assert.deepEqual(leftOut, [], `${name} leaves out types, maps, tests, debug symbols, docs, sources and CLIs`);
    }
  });

  it('the layout check finds what is missing or of another platform', async () => {
    const { layoutProblems } = await load<{ layoutProblems(root: string, name: string, target: Target): string[] }>('package/check-layout.mjs');
    const { TARGETS } = await load<Targets>('package/targets.mjs');
    const root = mkdtempSync(join(tmpdir(), 'opendev-layout-'));
    try {
      const put = (file: string, text = '') => {
        mkdirSync(join(root, file, '..'), { recursive: true });
        writeFileSync(join(root, file), text);
      };
      put('package.json', JSON.stringify({ main: './dist/extension.js', dependencies: {} }));
      put('dist/extension.js', 'const a = require("./core.js"); require("./vendor/html.js"); import("unpdf"); const s = \'require("not-a-call")\';');
      // A bundle loaded on first use, in a folder of its own, and what it requires beside it.
      put('dist/vendor/html.js', 'require("./dom.js")');
      put('dist/node_modules/@ast-grep/napi-darwin-arm64/package.json', '{}');
      // A Linux binary where the macOS one belongs.
      copyFileSync(join(repo, 'node_modules/@ast-grep/lang-go/prebuilds/prebuild-Linux-X64/parser.so'), join(root, 'dist/node_modules/@ast-grep/napi-darwin-arm64/ast-grep-napi.darwin-arm64.node'));
      put('dist/node_modules/playwright-core/types/types.d.ts');
      const problems = layoutProblems(root, 'darwin-arm64', TARGETS['darwin-arm64']!);
      const expect = (pattern: RegExp) => assert.ok(problems.some((p) => pattern.test(p)), `${pattern} in:\n${problems.join('\n')}`);
      expect(/dist\/extension\.js requires \.\/core\.js, which is missing/);
      expect(/dist\/extension\.js requires unpdf, which is not in dist\/node_modules/);
      expect(/dist\/vendor\/html\.js requires \.\/dom\.js, which is missing/);
      assert.ok(!problems.some((p) => p.includes('requires ./vendor/html.js')), 'a bundle in a folder is found there');
      expect(/ast-grep-napi\.darwin-arm64\.node is built for linux-x64/);
      expect(/node-pty\/prebuilds\/darwin-arm64\/pty\.node is missing/);
      expect(/node-pty\/prebuilds\/darwin-arm64\/spawn-helper is missing/);
      expect(/types\.d\.ts is a type declaration/);
      expect(/dist\/node_modules\/playwright-core\/types\/types\.d\.ts is part of playwright-core, which the extension downloads on first use/);
      assert.ok(!problems.some((p) => p.includes('not-a-call')), 'a require quoted in a string is not a require');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses a platform it cannot make here, and says how that one is made', () => {
    const other = process.arch === 'arm64' ? 'linux-x64' : 'linux-arm64';
    const run = spawnSync(process.execPath, [join(repo, 'scripts/package.mjs'), '--target', `${other},web`], { cwd: repo, encoding: 'utf8' });
    assert.equal(run.status, 1);
    if (process.platform === 'linux') assert.match(run.stderr, new RegExp(`${other} needs node-pty's addon compiled on ${other}.*run \`npm ci && npm run package\` on a ${other} machine`));
    assert.match(run.stderr, /web is not supported: OpenDev runs commands and native code/);
  });
});

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) yield* walk(join(dir, entry.name));
    else yield join(dir, entry.name);
  }
}
