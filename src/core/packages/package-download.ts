// Downloads a pinned library from the npm registry into the extension's storage (a bundle of its
// own, dist/package-download.js: only a first use of a feature whose library is missing loads it,
// and the package check runs it from the .vsix). Nothing is unpacked before the tarball's sha512 is
// the pinned one, and a copy moves into place whole, so a half-written one is never loaded.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { x as untar } from 'tar';
import { packageFeature, type PackagePin } from './package-pins';
import { PackageUnavailableError } from './package-unavailable';

/** The pins compiled into this bundle: the package check downloads with the very ones the extension uses. */
export { packagePin } from './package-pins';

export interface DownloadOptions {
  /** Kept under `<storageDir>/packages/<name>@<version>/`. */
  storageDir: string;
  /** The registry's base URL, e.g. https://registry.npmjs.org. */
  registry: string;
  signal?: AbortSignal;
}

/** Far above the real ones (playwright-core's tarball is about 3 MB): a bound on what is held in memory. */
const MAX_TARBALL_BYTES = 64 * 1024 * 1024;
/** A stalled connection gives up after this long rather than holding the tool forever. */
const DEADLINE_MS = 5 * 60_000;
/** A download in progress unpacks here, then moves into place. */
const SCRATCH_PREFIX = '.download-';
/** A scratch folder older than this belongs to no running download (its window was killed mid-way). */
const ABANDONED_AFTER_MS = 60 * 60_000;
/** Written last inside a finished copy: the integrity it was checked against. */
const MARKER = '.opendev-integrity';

/** The folder a download of `pin` lives in; the package itself is in its `node_modules/`. */
export function packageHome(storageDir: string, pin: PackagePin): string {
  return join(storageDir, 'packages', `${pin.name.replace('/', '+')}@${pin.version}`);
}

/** True when a finished, verified copy of `pin` is there. */
export function isDownloaded(storageDir: string, pin: PackagePin): boolean {
  return markerOf(packageHome(storageDir, pin)) === pin.integrity;
}

/** The registry's tarball URL of `pin` (the form npm itself records: `<registry>/<name>/-/<base>-<version>.tgz`). */
export function tarballUrl(registry: string, pin: PackagePin): string {
  return `${registry.replace(/\/+$/, '')}/${pin.name}/-/${pin.name.split('/').pop()}-${pin.version}.tgz`;
}

/**
 * The folder to load `pin` from (see packageHome): an earlier download, else one made now. Throws a
 * PackageUnavailableError: offline, integrity (nothing of it is kept) or failed (not storable).
 */
export async function ensureDownloaded(pin: PackagePin, options: DownloadOptions): Promise<string> {
  const home = packageHome(options.storageDir, pin);
  if (markerOf(home) === pin.integrity) return home;
  const url = tarballUrl(options.registry, pin);
  const vars = { VERSION: pin.version, FEATURE: packageFeature(pin.name), REGISTRY: options.registry };
  let bytes: Buffer;
  try {
    bytes = await fetchBytes(url, options.signal);
  } catch (err) {
    throw new PackageUnavailableError('offline', pin.name, { ...vars, ERROR: describe(err) });
  }
  const actual = `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
  if (!integrityMatches(pin.integrity, actual)) throw new PackageUnavailableError('integrity', pin.name, { ...vars, EXPECTED: pin.integrity, ACTUAL: actual });
  const packages = join(options.storageDir, 'packages');
  try {
    mkdirSync(packages, { recursive: true });
    removeAbandonedDownloads(packages);
    const scratch = await mkdtemp(join(packages, SCRATCH_PREFIX));
    try {
      const tarball = join(scratch, 'package.tgz');
      await writeFile(tarball, bytes);
      const target = join(scratch, 'node_modules', pin.name);
      mkdirSync(target, { recursive: true });
      // An npm tarball holds `package/…`, files and folders only; tar refuses paths that leave `cwd`.
      await untar({ file: tarball, cwd: target, strip: 1, filter: (_path, entry) => 'type' in entry && ['File', 'OldFile', 'Directory'].includes(entry.type) });
      rmSync(tarball);
      writeFileSync(join(scratch, MARKER), pin.integrity);
      // Another window may have finished the same download meanwhile: its copy is as good.
      if (markerOf(home) !== pin.integrity) {
        rmSync(home, { recursive: true, force: true });
        renameSync(scratch, home);
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  } catch (err) {
    if (markerOf(home) === pin.integrity) return home;
    throw new PackageUnavailableError('failed', pin.name, { ...vars, DIR: packages, ERROR: describe(err) });
  }
  removeOtherVersions(packages, pin, basename(home));
  return home;
}

async function fetchBytes(url: string, signal: AbortSignal | undefined): Promise<Buffer> {
  const deadline = AbortSignal.timeout(DEADLINE_MS);
  const response = await fetch(url, { signal: signal ? AbortSignal.any([signal, deadline]) : deadline });
  if (!response.ok || !response.body) throw new Error(`${url} answered HTTP ${response.status}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.length;
    if (size > MAX_TARBALL_BYTES) throw new Error(`${url} is larger than ${MAX_TARBALL_BYTES} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** An SRI value may list several hashes: the sha512 ones count, and one of them must match. */
function integrityMatches(pinned: string, actual: string): boolean {
  return pinned
    .split(/\s+/)
    .filter((h) => h.startsWith('sha512-'))
    .some((h) => h === actual);
}

function markerOf(home: string): string | undefined {
  const file = join(home, MARKER);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

/** What a download killed mid-way (a window closed, a crash) left behind; another window's download in progress is younger. */
function removeAbandonedDownloads(packages: string): void {
  for (const name of readdirSync(packages)) {
    if (!name.startsWith(SCRATCH_PREFIX)) continue;
    const dir = join(packages, name);
    try {
      if (Date.now() - statSync(dir).mtimeMs > ABANDONED_AFTER_MS) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Gone already, or not ours to remove: harmless either way.
    }
  }
}

/** Earlier versions of the same package (the extension updated): no longer loaded, so not kept. */
function removeOtherVersions(packages: string, pin: PackagePin, keep: string): void {
  const prefix = `${pin.name.replace('/', '+')}@`;
  for (const name of readdirSync(packages)) {
    if (!name.startsWith(prefix) || name === keep) continue;
    try {
      rmSync(join(packages, name), { recursive: true, force: true });
    } catch {
      // In use by an older window, say: the next download tries again.
    }
  }
}

function describe(err: unknown): string {
  const error = err as Error & { cause?: { code?: string; message?: string } };
  const cause = error?.cause?.code ?? error?.cause?.message;
  return `${error?.message ?? String(err)}${cause ? `: ${cause}` : ''}`;
}
