// The libraries only an optional feature needs and the .vsix leaves out (scripts/on-demand-packages.mjs):
// playwright-core for the browser tools, unpdf for read_pdf. Where they are installed (the CLI from
// npm, a development checkout, the tests) they load from node_modules as any library; the extension
// downloads one the first time its feature is used, pinned to package-lock.json's version and sha512.
/* eslint-disable @typescript-eslint/no-require-imports */
import { createRequire } from 'node:module';
import { isAbsolute, join, relative } from 'node:path';
import type * as PlaywrightCore from 'playwright-core';
import type * as Unpdf from 'unpdf';
import { sectionText } from '../template-text';
import type * as Download from './package-download';
import { packageFeature, packagePin } from './package-pins';
import { PackageUnavailableError } from './package-unavailable';

interface OnDemand {
  'playwright-core': typeof PlaywrightCore;
  unpdf: typeof Unpdf;
}
export type OnDemandPackage = keyof OnDemand;

/** What a host says while a download runs (the extension shows it as progress). */
export interface DownloadNotice {
  name: string;
  version: string;
  /** One line for the user, from templates/packages/texts.md. */
  text: string;
}

export interface PackageDownloads {
  /** Where downloads are kept (the extension's global storage). */
  storageDir: string;
  /**
   * A copy installed under this folder (the extension's own: a development checkout) is used as
   * is; one found anywhere else up the folder tree is not ours to load, so the pinned one is downloaded.
   */
  ownRoot: string;
  /** Default: OPENDEV_NPM_REGISTRY, else https://registry.npmjs.org. */
  registry?: string;
  /** Told when a download starts; `done` settles when it ends. */
  onDownload?(notice: DownloadNotice, done: Promise<unknown>): void;
}

const DEFAULT_REGISTRY = 'https://registry.npmjs.org';

let downloads: PackageDownloads | undefined;
const loading = new Map<string, Promise<unknown>>();

/** Lets this process download what is missing (the extension host); without it only installed copies load. */
export function configurePackageDownloads(options: PackageDownloads | undefined): void {
  downloads = options;
  loading.clear();
}

/** The library, loaded once per process; a PackageUnavailableError says why it cannot be had (a later call tries again). */
export function loadPackage<N extends OnDemandPackage>(name: N): Promise<OnDemand[N]> {
  let promise = loading.get(name);
  if (!promise) {
    const started = load(name);
    promise = started;
    loading.set(name, started);
    started.catch(() => {
      if (loading.get(name) === started) loading.delete(name);
    });
  }
  return promise as Promise<OnDemand[N]>;
}

async function load(name: string): Promise<unknown> {
  // An absolute path: any require loads it (this file's keeps the bundles' require as it was).
  return createRequire(__filename)(await locate(name)) as unknown;
}

/**
 * Where the library's entry file is, installed or downloaded first: for code that must load it
 * elsewhere than in this thread (read_pdf's worker). A PackageUnavailableError says why it cannot be had.
 */
export function packagePath(name: OnDemandPackage): Promise<string> {
  return locate(name);
}

async function locate(name: string): Promise<string> {
  // Resolved from this file: dist/ in the bundles, out/src/core/packages/ in the tests.
  const own = createRequire(__filename);
  let notFound: string;
  try {
    const path = own.resolve(name);
    if (!downloads || inside(path, downloads.ownRoot)) return path;
    notFound = `${path} is not the extension's own`;
  } catch (err) {
    notFound = (err as Error).message.split('\n')[0]!;
  }
  const pin = packagePin(name);
  if (!downloads || !pin) throw new PackageUnavailableError('not_installed', name, { FEATURE: packageFeature(name), ERROR: notFound });
  const { storageDir } = downloads;
  const registry = downloads.registry ?? (process.env.OPENDEV_NPM_REGISTRY?.trim() || DEFAULT_REGISTRY);
  const download = require('./package-download') as typeof Download;
  let home: string;
  if (download.isDownloaded(storageDir, pin)) home = download.packageHome(storageDir, pin);
  else {
    const done = download.ensureDownloaded(pin, { storageDir, registry });
    const text = sectionText('packages/texts.md', 'downloading', { PACKAGE: name, VERSION: pin.version, FEATURE: packageFeature(name), REGISTRY: registry });
    downloads.onDownload?.({ name, version: pin.version, text }, done);
    home = await done;
  }
  const from = createRequire(join(home, 'package.json'));
  const path = from.resolve(name);
  if (!inside(path, home)) throw new PackageUnavailableError('failed', name, { VERSION: pin.version, FEATURE: packageFeature(name), REGISTRY: registry, DIR: home, ERROR: `it resolved to ${path}` });
  return path;
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}
