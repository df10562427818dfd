// Another platform's build of a native package (npm installs only this machine's): fetched from
// the registry with `npm pack` at the exact version its parent names, unpacked into a cache.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Where fetched packages are kept between runs: `<cache>/<name>@<version>/<name>/`. */
export function nativeCache(root) {
  return join(root, 'node_modules', '.cache', 'opendev-package');
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
  mkdirSync(nativeCache(root), { recursive: true });
  const scratch = mkdtempSync(join(nativeCache(root), '.fetch-'));
  try {
    const windows = process.platform === 'win32';
    const out = execFileSync(windows ? 'npm.cmd' : 'npm', ['pack', `${name}@${wanted}`, '--json', '--pack-destination', scratch], { encoding: 'utf8', shell: windows });
    const [packed] = JSON.parse(out);
    execFileSync('tar', ['-xzf', packed.filename, '-C', '.'], { cwd: scratch });
    mkdirSync(join(home, name, '..'), { recursive: true });
    renameSync(join(scratch, 'package'), join(home, name));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return home;
}
