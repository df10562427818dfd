// Registry tarballs at an exact version, fetched with `npm pack` (from npm's cache when it has them)
// into a cache of our own: another platform's build of a native package (npm installs only this
// machine's), and the tarballs of the packages the extension downloads on first use, which the
// package check serves to it from 127.0.0.1 (runtime-probe.mjs).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Where fetched packages are kept between runs: `<cache>/<name>@<version>/<name>/`, tarballs in `<cache>/tarballs/`. */
export function nativeCache(root) {
  return join(root, 'node_modules', '.cache', 'opendev-package');
}

/** The registry's tarball of `name@version`, byte for byte (its sha512 is package-lock.json's integrity). */
export function registryTarball(root, name, version) {
  const dir = join(nativeCache(root), 'tarballs');
  const file = join(dir, `${name.replace('/', '+')}@${version}.tgz`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const scratch = mkdtempSync(join(dir, '.fetch-'));
  try {
    const windows = process.platform === 'win32';
    const out = execFileSync(windows ? 'npm.cmd' : 'npm', ['pack', `${name}@${version}`, '--json', '--prefer-offline', '--pack-destination', scratch], { encoding: 'utf8', shell: windows, stdio: ['ignore', 'pipe', 'pipe'] });
    const [packed] = JSON.parse(out);
    renameSync(join(scratch, packed.filename), file);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return file;
}

/**
 * Makes sure `name` (an optional dependency of `parent`, e.g. `@ast-grep/napi-darwin-arm64` of
 * `@ast-grep/napi`) is at hand, and returns the folder that holds it under its name: node_modules
 * when npm installed it, else the cache, fetched once.
 */
export function ensureNativePackage(root, parent, name) {
  if (existsSync(join(root, 'node_modules', name, 'package.json'))) return join(root, 'node_modules');
  const wanted = JSON.parse(readFileSync(join(root, 'node_modules', parent, 'package.json'), 'utf8')).optionalDependencies?.[name];
  if (!wanted) throw new Error(`${parent} names no optional dependency ${name}`);
  const home = join(nativeCache(root), `${name.replace('/', '+')}@${wanted}`);
  if (existsSync(join(home, name, 'package.json'))) return home;
  const tarball = registryTarball(root, name, wanted);
  const scratch = mkdtempSync(join(nativeCache(root), '.unpack-'));
  try {
    execFileSync('tar', ['-xzf', tarball, '-C', scratch]);
    mkdirSync(join(home, name, '..'), { recursive: true });
    renameSync(join(scratch, 'package'), join(home, name));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return home;
}
