// Builds every artefact: the extension host bundle and the CLI (CJS for Node), the chat webview
// (IIFE for the browser), and the tests (one CJS file per source file, so mocha and the VS Code
// extension host can load them without a bundle of their own).
import * as esbuild from 'esbuild';
import { existsSync, readdirSync, readFileSync, statSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CODE_CACHED, LAZY_BUNDLES, lazyBundles } from './scripts/lazy-bundles.mjs';
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

/**
 * The CLI's agent bundle and the libraries' bundles without comments and whitespace in every build
 * (names kept, so stack traces still read; the source maps map them back): `opendev -p` parses a
 * third less before its first request. The extension's core stays as written outside production.
 */
/**
 * The SDKs' bundles get their `Headers` and `FormData` from src/core/llm/sdk-web-globals.ts: the
 * globals would load Node's fetch implementation (undici) on the first request.
 */
const SDK_BUNDLES = new Set(['vendor/openai.js', 'vendor/anthropic.js']);

/**
 * The Anthropic bundle carries the Bedrock and Vertex clients. Packages with an ES build are taken
 * from it (mainFields), so the AWS client the Bedrock SDK imports two names from is tree-shaken to
 * them (0.6 MB to 0.09 MB); the AWS credential chain stays out (OpenDev reads static credentials
 * itself, src/core/config/aws-credentials.ts; the SDK loads the chain from node_modules where it is
 * installed, as with the CLI from npm), and so does google-auth-library (dist/vendor/google-auth.js).
 */
function awsCredentialChainByRequire() {
  return {
    name: 'aws-credential-chain-by-require',
    setup(build) {
      build.onResolve({ filter: /^@aws-sdk\/credential-providers$/ }, (args) =>
        args.importer.endsWith('aws-credential-providers.cjs') ? { path: args.path, external: true } : { path: resolve('scripts/vendor-shims/aws-credential-providers.cjs') },
      );
    },
  };
}

const ANTHROPIC_CLOUDS = {
  mainFields: ['module', 'main'],
  alias: { 'google-auth-library': './scripts/vendor-shims/google-auth-library.mjs' },
  plugins: [awsCredentialChainByRequire()],
};

const compactUnlessCore = (bundle) => (bundle === 'extension-core.js' ? {} : { minifyWhitespace: true, minifySyntax: true });

const builds = [
  // activate() and `opendev --version/--help` load only these; the rest loads on first use (scripts/lazy-bundles.mjs).
  { ...node, entryPoints: ['src/vscode/extension.ts'], outfile: 'dist/extension.js', plugins: [lazyBundles({ lean: true })] },
  {
    ...node,
    entryPoints: ['src/cli/entry.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
    define: { ...node.define, OPENDEV_CODE_CACHED: JSON.stringify([...CODE_CACHED]) },
    plugins: [lazyBundles({ lean: true })],
  },
  ...Object.entries(LAZY_BUNDLES).map(([source, bundle]) => ({
    ...node,
    ...compactUnlessCore(bundle),
    ...(SDK_BUNDLES.has(bundle) ? { inject: ['src/core/llm/sdk-web-globals.ts'] } : {}),
    ...(bundle === 'vendor/anthropic.js' ? ANTHROPIC_CLOUDS : {}),
    entryPoints: [source],
    outfile: `dist/${bundle}`,
    plugins: [lazyBundles({ codeCached: CODE_CACHED.has(bundle) }), ...(bundle === 'vendor/anthropic.js' ? ANTHROPIC_CLOUDS.plugins : [])],
  })),
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

/**
 * dist/tool-parameters.json: the built-in tools' JSON schemas, derived here from the sources just
 * bundled (src/core/tools/builtin-parameters.ts reads it), with every editor and host port offered.
 */
async function writeToolParameters() {
  const contents = [
    "import { builtinTools } from './src/core/tools/builtin-tools';",
    "import { deriveParameters } from './src/core/tools/builtin-parameters';",
    "import { WebSession } from './src/core/web/web-session';",
    'const every = { symbols: {}, notebooks: {}, openExternal: async () => false };',
    'module.exports = () => deriveParameters(builtinTools(every, new WebSession()));',
  ].join('\n');
  const generator = 'dist/tool-parameters-gen.js';
  await esbuild.build({ ...node, stdin: { contents, resolveDir: '.', loader: 'ts', sourcefile: 'tool-parameters.ts' }, outfile: generator, sourcemap: false, plugins: [lazyBundles()] });
  try {
    const derive = (await import(`${pathToFileURL(resolve(generator)).href}?${Date.now()}`)).default;
    writeFileSync('dist/tool-parameters.json', `${JSON.stringify(derive())}\n`);
  } finally {
    rmSync(generator, { force: true });
  }
}

/**
 * dist/template-frontmatter.json: the headers of templates/ as the yaml package reads them
 * (src/core/frontmatter.ts looks a header up there before loading yaml), read here by that same code.
 */
async function writeTemplateFrontmatter() {
  const contents = "module.exports = require('./src/core/frontmatter').deriveTemplateFrontmatter;";
  const generator = 'dist/template-frontmatter-gen.js';
  await esbuild.build({ ...node, stdin: { contents, resolveDir: '.', loader: 'ts', sourcefile: 'template-frontmatter.ts' }, outfile: generator, sourcemap: false, plugins: [lazyBundles()] });
  try {
    const derive = (await import(`${pathToFileURL(resolve(generator)).href}?${Date.now()}`)).default;
    writeFileSync('dist/template-frontmatter.json', `${JSON.stringify(derive(resolve('templates')))}\n`);
  } finally {
    rmSync(generator, { force: true });
  }
}

if (watch) {
  // A rebuild would leave the files stale: without them the registry derives the schemas itself,
  // and every frontmatter header is read by yaml.
  rmSync('dist/tool-parameters.json', { force: true });
  rmSync('dist/template-frontmatter.json', { force: true });
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('[esbuild] watching…');
} else {
  if (!production) rmSync('out', { recursive: true, force: true });
  await Promise.all(builds.map((b) => esbuild.build(b)));
  await Promise.all([writeToolParameters(), writeTemplateFrontmatter()]);
}
