// Bundles that load on first use. esbuild splits code only for ESM output, and the extension host
// and the CLI load CommonJS; so each part that start-up must not parse is a bundle of its own in
// dist/, and the code that needs it reaches it through a `require()` where it is used, which the
// plugin below turns into a require of the built file. A static import of one would parse it at
// start-up again: that is a build error. (The tests' per-file build in out/ needs none of this: the
// same require loads the compiled source.)
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/** Source (from the repository root) → its bundle, relative to dist/. */
export const LAZY_BUNDLES = {
  // The CLI past --version and --help (dist/cli.js is src/cli/entry.ts).
  'src/cli/main.ts': 'cli-main.js',
  // `opendev acp`: the agent for an editor over the Agent Client Protocol, its SDK inside.
  'src/acp/acp-entry.ts': 'acp.js',
  // The extension past activate() (dist/extension.js is src/vscode/extension.ts).
  'src/vscode/extension-core.ts': 'extension-core.js',
  // Downloading a library a feature needs (the extension, on that feature's first use), tar inside.
  'src/core/packages/package-download.ts': 'package-download.js',
  // Third-party libraries only some features need: src/vendor/<name>.ts → vendor/<name>.js.
  ...Object.fromEntries(
    readdirSync(join(root, 'src/vendor'))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => [`src/vendor/${name}`, `vendor/${name.replace(/\.ts$/, '.js')}`]),
  ),
};

/**
 * Bundles the CLI loads through its V8 code cache (src/cli/code-cache.ts): the agent and the SDKs its
 * first request needs. Code compiled that way has no import() on Node 20, so the build fails if one
 * of them holds one.
 */
export const CODE_CACHED = new Set(['cli-main.js', 'vendor/openai.js', 'vendor/anthropic.js']);

/**
 * Core modules an entry bundle may take in: they import nothing but Node's own modules (the CLI's
 * entry finds the code cache under the OpenDev home, and `--version` reads the one version number).
 */
const LEAN_CORE = new Set(['src/core/config/opendev-home.ts', 'src/core/version.ts']);

/**
 * The esbuild plugin for the Node bundles (all of them in dist/). With `lean`, the bundle must not
 * take in any library or the core: the build fails naming what pulled one in (dist/cli.js and
 * dist/extension.js answer before anything heavy loads). With `codeCached`, it must hold no import().
 */
export function lazyBundles({ lean = false, codeCached = false } = {}) {
  return {
    name: 'lazy-bundles',
    setup(build) {
      if (lean || codeCached) build.initialOptions.metafile = true;
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const source = sourceOf(resolve(args.resolveDir, args.path));
        const bundle = source && LAZY_BUNDLES[source];
        if (!bundle) return undefined;
        if (args.kind !== 'require-call' && args.kind !== 'require-resolve') {
          return { errors: [{ text: `${source} loads on first use (dist/${bundle}): require() it where it is needed; a static import would load it at start-up` }] };
        }
        return { path: `./${bundle}`, external: true };
      });
      if (codeCached) {
        // Errors returned (not pushed onto result.errors, which esbuild ignores) fail the build.
        build.onEnd((result) => ({
          errors: Object.entries(result.metafile?.outputs ?? {}).flatMap(([output, { imports }]) => {
            const dynamic = imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path);
            return dynamic.length === 0 ? [] : [{ text: `${output} loads through the code cache, where Node 20 has no import(), but it imports ${dynamic.join(', ')}: reach it through a facade in src/vendor/` }];
          }),
        }));
      }
      if (!lean) return;
      build.onEnd((result) => ({
        errors: Object.entries(result.metafile?.outputs ?? {}).flatMap(([output, { inputs }]) => {
          const heavy = Object.keys(inputs).filter((input) => input.startsWith('node_modules/') || (input.startsWith('src/core/') && !LEAN_CORE.has(input)));
          return heavy.length === 0 ? [] : [{ text: `${output} must stay lean (it answers before anything heavy loads), but it bundles ${heavy.slice(0, 5).join(', ')}${heavy.length > 5 ? '…' : ''}: reach them through a lazy bundle` }];
        }),
      }));
    },
  };
}

/** The repository-relative .ts source an import path names, if it is one. */
function sourceOf(path) {
  for (const candidate of [path, `${path}.ts`]) {
    if (candidate.endsWith('.ts') && existsSync(candidate)) return relative(root, candidate);
  }
  return undefined;
}
