// The sandbox runtime as the .vsix carries it: one minified ESM file in place of its dist/ tree
// and its dependencies' (node-forge, its own zod 3, the SOCKS server), 0.6 MiB compressed before,
// under 0.2 after. It stays at its package's path, dist/index.js, beside its package.json and
// vendor/ (the seccomp helper and the JVM agent, which it finds from there: `../vendor/…`).
//
// Of node-forge it takes what the runtime uses: mitm-ca.js and mitm-leaf.js, its TLS-terminating
// proxy's certificate authority (a feature OpenDev does not configure, but the manager imports it),
// use `asn1`, `pki`, `md`, `random` and `util`. node-forge's index requires every module onto one
// shared object; each module requires what it needs itself, so those five need no TLS stack, SSH,
// PKCS#7, Ed25519 or KEM. The package check makes a CA with it (runtime-probe.mjs).
import { buildSync } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

const NAME = '@anthropic-ai/sandbox-runtime';
const FORGE_MODULES = ['asn1', 'pki', 'md.all', 'random', 'util'];

/**
 * Bundles the sandbox runtime into `scratch`; returns its files as `{ from, rel }` (`rel`: the path
 * in the package): `dist/index.js` and `ThirdPartyNotices.txt` for what the bundle took in.
 */
export function bundleSandboxRuntime(root, scratch) {
  const pkg = join(root, 'node_modules', NAME);
  const forge = join(root, 'node_modules', 'node-forge');
  const out = join(scratch, 'sandbox-runtime');
  mkdirSync(out, { recursive: true });
  const forgeEntry = join(out, 'node-forge-subset.cjs');
  writeFileSync(forgeEntry, [`module.exports = require(${JSON.stringify(join(forge, 'lib', 'forge.js'))});`, ...FORGE_MODULES.map((m) => `require(${JSON.stringify(join(forge, 'lib', `${m}.js`))});`)].join('\n'));
  const entry = [
    "export * from './dist/index.js';",
    // The two lookups the package check calls, to see that the bundle finds its helpers.
    "export { getApplySeccompBinaryPath } from './dist/sandbox/generate-seccomp-filter.js';",
    "export { getJavaProxyAgentJarPathAsync } from './dist/sandbox/java-proxy-agent.js';",
  ].join('\n');
  const result = buildSync({
    stdin: { contents: entry, resolveDir: pkg, sourcefile: 'index.js', loader: 'js' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: true,
    metafile: true,
    logLevel: 'error',
    absWorkingDir: root,
    outfile: join(out, 'dist', 'index.js'),
    alias: { 'node-forge': forgeEntry },
    // An optional Windows backend it resolves at run time, when installed.
    external: ['@microsoft/mxc-sdk', '@microsoft/mxc-sdk/*'],
    // node-forge is CommonJS and requires Node's modules: an ES module has no `require` of its own.
    banner: { js: "import { createRequire as __opendevCreateRequire } from 'node:module'; const require = __opendevCreateRequire(import.meta.url);" },
  });
  const notices = [...new Set(Object.keys(result.metafile.inputs).map((input) => packageRootOf(root, input)).filter((dir) => dir && dir !== pkg))].sort().map((dir) => notice(root, dir));
  writeFileSync(join(out, 'ThirdPartyNotices.txt'), `dist/index.js bundles ${NAME} with these packages (or parts of them):\n\n${notices.join('\n\n')}\n`);
  return [
    { from: join(out, 'dist', 'index.js'), rel: 'dist/index.js' },
    { from: join(out, 'ThirdPartyNotices.txt'), rel: 'ThirdPartyNotices.txt' },
  ];
}

/** The folder of the package an input of the bundle belongs to (the nearest package.json with a name). */
function packageRootOf(root, input) {
  let dir = dirname(join(root, input));
  if (!input.split(/[\\/]/).includes('node_modules')) return undefined; // the generated entries
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function notice(root, dir) {
  const { name, version, license } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const file = readdirSync(dir).find((f) => /^LICEN[CS]E/i.test(f));
  const text = file ? readFileSync(join(dir, file), 'utf8').trim() : `(no licence file; package.json says ${license})`;
  return `${'-'.repeat(72)}\n${name}@${version}, licence ${license} (${relative(root, dir).split(sep).join('/')})\n\n${text}`;
}
