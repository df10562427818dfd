// Checks an unpacked .vsix for its target without running it (a package for another platform
// cannot run here): everything the extension's loaders look for on that platform is there, in
// that platform's binary format and executable where it must be; nothing of another platform and
// none of what files.mjs leaves out (types, source maps, tests, docs, CLIs, the packages the
// extension downloads on first use).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, posix, relative, sep } from 'node:path';
import { ON_DEMAND_PACKAGES } from '../on-demand-packages.mjs';
import { binaryFormat } from './binary-format.mjs';
import { RUNTIME_DIR, relativeRequires, walk } from './files.mjs';

/** Files no package carries, whatever the target. */
const LEFT_OUT = [
  [/\.d\.[cm]?ts$/, 'a type declaration'],
  [/\.map$/, 'a source map'],
  [/(^|\/)(test|tests|__tests__)\/|\.test\.js$/, 'a test'],
  [/\.pdb$/, 'debug symbols'],
  [/^dist\/node_modules\/.*\/(README|CHANGELOG)[^/]*$/i, "a dependency's docs"],
  ...ON_DEMAND_PACKAGES.map((name) => [new RegExp(`^dist/node_modules/${name}/`), `part of ${name}, which the extension downloads on first use`]),
  [/^dist\/node_modules\/@anthropic-ai\/sandbox-runtime\/dist\/cli\.js$/, "the sandbox runtime's CLI"],
  [/^dist\/cli\.js$/, 'the CLI bundle'],
];

/**
 * Packages a bundle may require that the .vsix leaves out on purpose: the AWS credential chain, which
 * the Bedrock client asks for only without static AWS credentials or a Bedrock API key (SSO, assumed
 * roles), from node_modules where it is installed (the CLI from npm); see esbuild.config.mjs.
 */
const OPTIONAL_REQUIRES = new Set(['@aws-sdk/credential-providers']);

/** What is wrong with the extension unpacked at `root` (its `extension/` folder) for `target`; empty when nothing. */
export function layoutProblems(root, targetName, target) {
  const problems = [];
  const files = [...walk(root)].map((f) => relative(root, f).split(sep).join('/'));
  const has = (file) => files.includes(file);
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const main = manifest.main.replace(/^\.\//, '');
  if (!has(main)) problems.push(`the entry point ${main} is missing`);

  // The bundles' own requires (dist/ and its folders, as dist/vendor/): the bundles beside them, and
  // the runtime packages they name.
  const dist = join(root, 'dist');
  for (const bundle of files.filter((f) => f.startsWith('dist/') && !f.startsWith(`${RUNTIME_DIR}/`) && f.endsWith('.js'))) {
    const code = readFileSync(join(root, bundle), 'utf8');
    for (const next of relativeRequires(code)) {
      if (!has(posix.join(posix.dirname(bundle), next))) problems.push(`${bundle} requires ./${next}, which is missing`);
    }
    for (const name of bareRequires(code)) {
      if (OPTIONAL_REQUIRES.has(name)) continue;
      const pkg = name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0];
      if (!existsSync(join(dist, 'node_modules', pkg, 'package.json'))) problems.push(`${bundle} requires ${name}, which is not in ${RUNTIME_DIR}`);
    }
  }

  // What the native loaders look for on the target platform.
  const rt = (path) => `${RUNTIME_DIR}/${path}`;
  const native = [
    ...files.filter((f) => f.startsWith(rt(`@ast-grep/napi-${target.napi}/`)) && f.endsWith('.node')),
    ...files.filter((f) => /^dist\/node_modules\/@ast-grep\/lang-[^/]+\/package\.json$/.test(f)).map((f) => f.replace(/package\.json$/, `prebuilds/prebuild-${target.grammars}/parser.so`)),
    target.pty === 'build' ? rt('node-pty/build/Release/pty.node') : rt(`node-pty/prebuilds/${targetName}/pty.node`),
    ...(target.platform === 'darwin' ? [rt(`node-pty/prebuilds/${targetName}/spawn-helper`)] : []),
    ...(target.platform === 'win32' ? ['conpty.node', 'conpty_console_list.node', 'winpty-agent.exe', 'winpty.dll'].map((f) => rt(`node-pty/prebuilds/${targetName}/${f}`)) : []),
    ...(target.seccomp ? [rt(`@anthropic-ai/sandbox-runtime/vendor/seccomp/${target.seccomp}/apply-seccomp`)] : []),
  ];
  if (!native.some((f) => f.includes('@ast-grep/napi-'))) problems.push(`no @ast-grep/napi-${target.napi} binary`);
  for (const file of native) if (!has(file)) problems.push(`${file} is missing`);
  // Programs the libraries spawn (as VS Code unpacks them: with the mode the .vsix records).
  for (const file of native.filter((f) => /\/(spawn-helper|apply-seccomp)$/.test(f) && has(f))) {
    if (process.platform !== 'win32' && (statSync(join(root, file)).mode & 0o111) === 0) problems.push(`${file} is not executable`);
  }

  for (const file of files) {
    for (const [pattern, what] of LEFT_OUT) if (pattern.test(file)) problems.push(`${file} is ${what}`);
    const format = binaryFormat(join(root, file));
    if (format && (format.platform !== target.platform || format.arch !== target.arch)) problems.push(`${file} is built for ${format.platform}-${format.arch}`);
  }
  return problems;
}

/** Packages a bundle requires or imports by name (not Node's own, not `vscode`), from real calls only. */
function bareRequires(code) {
  const names = new Set();
  for (const m of code.matchAll(/(?<![\w$.'"`])(?:require|import)\(\s*["']([^"'./][^"']*)["']\s*\)/g)) {
    if (!isBuiltin(m[1]) && m[1] !== 'vscode') names.add(m[1]);
  }
  return names;
}

