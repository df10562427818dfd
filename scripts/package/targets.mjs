// The platforms a .vsix is made for (VS Code's `--target` names) and where each native part of the
// extension comes from for that platform: @ast-grep/napi's per-platform package, the tree-sitter
// grammar prebuilds of the @ast-grep/lang-* packages, node-pty's addon and the sandbox runtime's
// seccomp helper (Linux only).

/**
 * `pty: 'build'`: node-pty publishes no Linux addon, `npm install` compiles one on the machine,
 * so a Linux package can only be made on that same platform (CI makes linux-arm64 on an arm64
 * runner). `pty: 'prebuild'`: node-pty's npm package carries the addon (N-API, so any Node or
 * Electron version), and any machine can package it.
 */
export const TARGETS = {
  'linux-x64': { platform: 'linux', arch: 'x64', napi: 'linux-x64-gnu', grammars: 'Linux-X64', pty: 'build', seccomp: 'x64' },
  'linux-arm64': { platform: 'linux', arch: 'arm64', napi: 'linux-arm64-gnu', grammars: 'Linux-ARM64', pty: 'build', seccomp: 'arm64' },
  'darwin-x64': { platform: 'darwin', arch: 'x64', napi: 'darwin-x64', grammars: 'macOS-X64', pty: 'prebuild' },
  'darwin-arm64': { platform: 'darwin', arch: 'arm64', napi: 'darwin-arm64', grammars: 'macOS-ARM64', pty: 'prebuild' },
  'win32-x64': { platform: 'win32', arch: 'x64', napi: 'win32-x64-msvc', grammars: 'Windows-X64', pty: 'prebuild' },
};

/** VS Code's other targets, and why they get no package. */
export const UNSUPPORTED = {
  'win32-arm64': 'the @ast-grep/lang-* grammars have no Windows-on-Arm prebuilds',
  'linux-armhf': '@ast-grep/napi and the grammars have no 32-bit Arm builds',
  'alpine-x64': 'the grammar prebuilds are linked against glibc, not musl',
  'alpine-arm64': 'the grammar prebuilds are linked against glibc, not musl',
  web: 'OpenDev runs commands and native code: it needs a desktop or remote extension host',
};

/** The target of the machine this runs on, if it has one. */
export function hostTarget() {
  return Object.keys(TARGETS).find((name) => TARGETS[name].platform === process.platform && TARGETS[name].arch === process.arch);
}

/** Why this machine cannot package `name`, or undefined when it can. */
export function whyNotHere(name) {
  if (UNSUPPORTED[name]) return `${name} is not supported: ${UNSUPPORTED[name]}`;
  const target = TARGETS[name];
  if (!target) return `${name} is not a VS Code target (supported: ${Object.keys(TARGETS).join(', ')})`;
  if (target.pty === 'build' && name !== hostTarget()) {
    return `${name} needs node-pty's addon compiled on ${name} (node-pty publishes none for Linux): run \`npm ci && npm run package\` on a ${name} machine`;
  }
  return undefined;
}
