// Builds every artefact: the extension host bundle and the CLI (CJS for Node), the chat webview
// (IIFE for the browser), and the tests (one CJS file per source file, so mocha and the VS Code
// extension host can load them without a bundle of their own).
import * as esbuild from 'esbuild';
import { existsSync, readdirSync, readFileSync, statSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LAZY_BUNDLES, lazyBundles } from './scripts/lazy-bundles.mjs';
import { packagePins } from './scripts/on-demand-packages.mjs';
import { webviewBuilds } from './scripts/webview-builds.mjs';

const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const watch = args.has('--watch');

/**
 * Modules provided by the host or compiled natively: never bundled. playwright-core neither: it
 * finds its own files at run time (it cannot run from a bundle); nor unpdf (PDF.js, 1.6 MB, read_pdf
 * only), so activation does not parse it: both load from node_modules, or in the extension from a
 * download on first use (scripts/on-demand-packages.mjs). The sandbox runtime is ESM and finds its
 * own helpers (seccomp filters) next to itself: loaded with import() (the .vsix carries it bundled).
 */
const external = ['vscode', 'node-pty', '@ast-grep/napi', 'playwright-core', 'unpdf', '@anthropic-ai/sandbox-runtime'];
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
// What the extension may download on first use, pinned to package-lock.json (src/core/packages/).
const pins = { OPENDEV_PACKAGE_PINS: JSON.stringify(packagePins('.')) };

function listTs(dir) {
  const out = [];
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name === 'workspace' || name === 'node_modules') continue;
      out.push(...listTs(full));
    } else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

const node = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external,
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  define: { OPENDEV_VERSION: JSON.stringify(version), ...pins },
};

const builds = [
  // activate() and `opendev --version/--help` load only these; the rest loads on first use (scripts/lazy-bundles.mjs).
  { ...node, entryPoints: ['src/vscode/extension.ts'], outfile: 'dist/extension.js', plugins: [lazyBundles({ lean: true })] },
  {
    ...node,
    entryPoints: ['src/cli/entry.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
    plugins: [lazyBundles({ lean: true })],
  },
  ...Object.entries(LAZY_BUNDLES).map(([source, bundle]) => ({ ...node, entryPoints: [source], outfile: `dist/${bundle}`, plugins: [lazyBundles()] })),
  ...webviewBuilds({ production }),
];

if (!production) {
  builds.push({
    entryPoints: [...listTs('src'), ...listTs('test'), ...listTs('bench')],
    outdir: 'out',
    outbase: '.',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'inline',
    logLevel: 'warning',
    define: pins,
  });
  // The undo crash test starts this child 50 times: one bundle loads in a third of the time.
  builds.push({ ...node, entryPoints: ['test/unit/core/undo/undo-crash-child.ts'], outfile: 'out/test/unit/core/undo/undo-crash-child.bundle.js', sourcemap: false, plugins: [lazyBundles()] });
  // Likewise the session tests' second process (50 writers killed, and the lock holders): half the load time.
  builds.push({ ...node, entryPoints: ['test/unit/core/session/session-child.ts'], outfile: 'out/test/unit/core/session/session-child.bundle.js', sourcemap: false, plugins: [lazyBundles()] });
}

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('[esbuild] watching…');
} else {
  if (!production) rmSync('out', { recursive: true, force: true });
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
