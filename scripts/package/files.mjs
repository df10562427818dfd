// What a .vsix carries: the files list of the package, per target. Only what runs there: the
// bundles (not the CLI's), the templates and media, and the runtime packages the
// bundles require (esbuild leaves them external) with just their code, licences and the native
// binaries of that one platform: no other platforms' builds, no .d.ts, no source maps, no tests,
// docs or sources, no CLIs, and no parts of a package the extension never loads. Not the packages
// only an optional feature needs (scripts/on-demand-packages.mjs): the extension downloads those.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { bundleSandboxRuntime } from './bundle-runtime.mjs';
import { ensureNativePackage } from './native-packages.mjs';

/** The runtime packages live beside the bundles: `dist/node_modules`, where `require` looks first. */
export const RUNTIME_DIR = 'dist/node_modules';

const LICENCE = /^(LICEN[CS]E|NOTICE|ThirdPartyNotices)[^/]*$/i;
const anyOf = (...patterns) => (file) => patterns.some((p) => (typeof p === 'string' ? file === p : p.test(file)));

/**
 * The packages the bundles load at run time, with the files of each that `target` needs (paths
 * relative to the package). `nativeOf`: a platform build of that package, which npm installs for
 * this machine only; another platform's is fetched (native-packages.mjs). `bundle(root, scratch)`:
 * files made from the package's code that ship in its place (`{ from, rel }`).
 */
export function runtimePackages(target, root) {
  const { platform, arch, napi, grammars, pty, seccomp } = target;
  const grammarPackages = Object.keys(readJson(join(root, 'package.json')).dependencies).filter((n) => n.startsWith('@ast-grep/lang-'));
  const ptyNative =
    pty === 'build'
      ? ['build/Release/pty.node']
      : platform === 'win32'
        ? // conpty/ (conpty.dll, OpenConsole.exe) serves node-pty's useConptyDll option only, which OpenDev leaves off.
          ['pty.node', 'conpty.node', 'conpty_console_list.node', 'winpty-agent.exe', 'winpty.dll'].map((f) => `prebuilds/${platform}-${arch}/${f}`)
        : ['pty.node', 'spawn-helper'].map((f) => `prebuilds/${platform}-${arch}/${f}`);
  return [
    // Background tasks in a pseudo-terminal: the loader and this platform's addon.
    {
      name: 'node-pty',
      keep: anyOf('package.json', LICENCE, /^lib\/(?!.*\.test\.js$).*\.js$/, ...ptyNative),
      executable: anyOf(/spawn-helper$/),
    },
    // Structural search and the shell parser: the loader, this platform's binary, the grammars.
    { name: '@ast-grep/napi', keep: anyOf('package.json', LICENCE, 'index.js') },
    { name: `@ast-grep/napi-${napi}`, nativeOf: '@ast-grep/napi', keep: anyOf('package.json', LICENCE, /^[^/]+\.node$/) },
    { name: '@ast-grep/setup-lang', keep: anyOf('package.json', LICENCE, 'index.js') },
    ...grammarPackages.map((name) => ({ name, keep: anyOf('package.json', LICENCE, 'index.js', `prebuilds/prebuild-${grammars}/parser.so`) })),
    // The command sandbox: bundled with its dependencies (bundle-runtime.mjs) in place of its dist/
    // tree; the seccomp helper on Linux, the JVM proxy agent where it sandboxes (Linux, macOS).
    {
      name: '@anthropic-ai/sandbox-runtime',
      bundle: bundleSandboxRuntime,
      keep: anyOf('package.json', LICENCE, ...(seccomp ? [`vendor/seccomp/${seccomp}/apply-seccomp`] : []), ...(platform !== 'win32' ? ['vendor/java-proxy-agent/srt-proxy-agent.jar'] : [])),
      executable: anyOf(/apply-seccomp$/),
    },
  ];
}

/**
 * Every file of the .vsix for `target`, as `{ from, to, executable }` (`to` relative to the
 * extension's root). `dist`: the production build; `scratch`: a folder for the bundled packages.
 */
export function packageFiles(target, { root, dist, scratch }) {
  const files = [];
  const add = (from, to, executable = false) => files.push({ from, to: to.split(sep).join('/'), executable });
  // The manifest's translations (package.nls*.json) and the extension's own (l10n/): VS Code reads both from the package.
  for (const name of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', ...readdirSync(root).filter((f) => /^package\.nls(\.[a-z-]+)?\.json$/.test(f)).sort()]) add(join(root, name), name);
  for (const dir of ['templates', 'media', 'l10n']) for (const file of walk(join(root, dir))) add(file, relative(root, file));
  for (const name of shippedBundles(dist)) add(join(dist, name), `dist/${name}`);
  // What the build derived: the built-in tools' JSON schemas (src/core/tools/builtin-parameters.ts)
  // and the templates' frontmatter (src/core/frontmatter.ts).
  if (existsSync(join(dist, 'tool-parameters.json'))) add(join(dist, 'tool-parameters.json'), 'dist/tool-parameters.json');
  if (existsSync(join(dist, 'template-frontmatter.json'))) add(join(dist, 'template-frontmatter.json'), 'dist/template-frontmatter.json');
  for (const pkg of runtimePackages(target, root)) {
    const dir = join(pkg.nativeOf ? ensureNativePackage(root, pkg.nativeOf, pkg.name) : join(root, 'node_modules'), pkg.name);
    if (!existsSync(join(dir, 'package.json'))) throw new Error(`${pkg.name} is not installed (npm ci)`);
    for (const file of walk(dir)) {
      const rel = relative(dir, file).split(sep).join('/');
      if (pkg.keep(rel)) add(file, `${RUNTIME_DIR}/${pkg.name}/${rel}`, pkg.executable?.(rel) ?? false);
    }
    for (const { from, rel } of pkg.bundle?.(root, scratch) ?? []) add(from, `${RUNTIME_DIR}/${pkg.name}/${rel}`);
  }
  return files;
}

/**
 * The bundles of the production build the .vsix carries: every one but those only the CLI loads
 * (`cli.js` and what it requires of its neighbours, unless `extension.js` requires it too), since
 * `opendev` is installed from npm, not from the .vsix. A bundle loaded some other way than a
 * literal require ships: leaving out what the extension needs would break it.
 */
export function shippedBundles(dist) {
  const closure = (entry) => {
    const seen = new Set();
    const visit = (name) => {
      if (seen.has(name) || !existsSync(join(dist, name))) return;
      seen.add(name);
      for (const next of relativeRequires(readFileSync(join(dist, name), 'utf8'))) visit(posix.join(posix.dirname(name), next));
    };
    visit(entry);
    return seen;
  };
  const extension = closure('extension.js');
  const cli = closure('cli.js');
  // Bundles loaded on first use sit in folders of their own (dist/vendor/).
  return [...walk(dist)]
    .map((file) => relative(dist, file).split(sep).join('/'))
    .filter((name) => name.endsWith('.js') && (extension.has(name) || !cli.has(name)))
    .sort();
}

/**
 * `./x.js` files a bundle requires or imports: calls with a literal argument, not the same text
 * quoted inside a string (generated code that libraries carry as text).
 */
export function relativeRequires(code) {
  const out = new Set();
  for (const m of code.matchAll(/(?<![\w$.'"`])(?:require|import)\(\s*["']\.\/([^"']+)["']\s*\)/g)) out.add(m[1].endsWith('.js') ? m[1] : `${m[1]}.js`);
  return out;
}

/** Every file under `dir`, at any depth. */
export function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) yield* walk(full);
    else yield full;
  }
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}
