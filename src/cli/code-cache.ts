// Loads the CLI's agent bundle (dist/cli-main.js, about 1 MB) with a V8 code cache kept under the
// OpenDev home, so that a run neither parses the bundle nor compiles the functions start-up runs
// again (Node 20 has no module.enableCompileCache; this is what v8-compile-cache did, for one file,
// with the cache taken after the run so it holds the functions that ran, not only the top level).
// The cache is written at the exit of a run that found none, or one V8 or we refused; it carries the
// SHA-256 of the bundle it was made from and of its own bytes, because V8 checks only the length of
// the source: a cache of another build, a truncated or a damaged file is ignored and replaced.
// Code run this way cannot use import() on Node 20 (it would need an experimental flag): the build
// fails if the bundle holds one (scripts/lazy-bundles.mjs); ESM libraries load through src/vendor/.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { Script } from 'node:vm';

/** `OPENDEV_CODE_CACHE=0` loads the bundle as Node would (to rule the cache out when debugging). */
export const CODE_CACHE_ENV = 'OPENDEV_CODE_CACHE';

const MAGIC = Buffer.from('opendev-v8-cache-1\n');
const HASH_BYTES = 32;

/** The parts of Node's CommonJS loader used here, which @types/node does not declare. */
interface LoaderModule {
  exports: unknown;
  filename: string;
  paths: string[];
  loaded: boolean;
  require(id: string): unknown;
  load(filename: string): void;
  _compile(content: string, filename: string): unknown;
}
interface Loader {
  new (id: string, parent?: unknown): LoaderModule;
  _cache: Record<string, LoaderModule | undefined>;
  _resolveFilename(request: string, parent: LoaderModule, isMain: boolean, options?: { paths?: string[] }): string;
  wrap(source: string): string;
}
const loader = Module as unknown as Loader;

/** The cache file of one bundle: one per installed copy of it, replaced when the bundle changes. */
export function codeCacheFile(cacheDir: string, filename: string): string {
  return join(cacheDir, `${basename(filename)}-${sha256(filename).toString('hex').slice(0, 16)}.v8`);
}

/** Where the cache lives, and which other bundles load through it when the first one requires them. */
export interface CodeCacheOptions {
  cacheDir: string;
  /** Absolute paths of bundles that a cached bundle reaches with a relative require(). */
  alsoCached: ReadonlySet<string>;
}

/**
 * `require(filename)` for a CommonJS bundle, through the code cache (its folder is created 0700 when
 * the cache is written, like the rest of the OpenDev home). Any failure of the cache itself falls
 * back to compiling as usual; the bundle's own errors propagate as from require().
 */
export function requireWithCodeCache(filename: string, options: CodeCacheOptions): unknown {
  const cached = loader._cache[filename];
  if (cached) return cached.exports;
  const mod = new loader(filename, module);
  mod._compile = function compileWithCache(content: string, file: string): unknown {
    const sourceHash = sha256(content);
    const cacheFile = codeCacheFile(options.cacheDir, file);
    const cachedData = readCache(cacheFile, sourceHash);
    const script = new Script(loader.wrap(content), { filename: file, cachedData });
    if (cachedData === undefined || script.cachedDataRejected === true) {
      process.once('exit', () => writeCache(cacheFile, sourceHash, script));
    }
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return wrapper.call(mod.exports, mod.exports, requireFor(mod, options), mod, file, dirname(file));
  };
  loader._cache[filename] = mod;
  try {
    // Node's own load(): the extension handlers, the module's paths, NODE_DEBUG=module naming the file.
    mod.load(filename);
  } catch (err) {
    delete loader._cache[filename];
    throw err;
  }
  return mod.exports;
}

/** The `require` a module's code is given: resolves from the module, as Node's own does. */
function requireFor(mod: LoaderModule, options: CodeCacheOptions): NodeJS.Require {
  const req = ((id: string) => {
    if (id.startsWith('./') || id.startsWith('../')) {
      const file = resolve(dirname(mod.filename), id);
      if (options.alsoCached.has(file)) return requireWithCodeCache(file, options);
    }
    return mod.require(id);
  }) as NodeJS.Require;
  req.resolve = Object.assign((request: string, opts?: { paths?: string[] }) => loader._resolveFilename(request, mod, false, opts), {
    paths: (request: string) => (request.startsWith('.') ? [dirname(mod.filename)] : mod.paths),
  });
  req.main = require.main;
  req.cache = require.cache;
  req.extensions = require.extensions;
  return req;
}

/** The cached data for `source`, or undefined when there is none or it was made from something else. */
function readCache(cacheFile: string, sourceHash: Buffer): Buffer | undefined {
  let file: Buffer;
  try {
    file = readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  const header = MAGIC.length + 2 * HASH_BYTES;
  if (file.length <= header || !file.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const dataHash = file.subarray(MAGIC.length + HASH_BYTES, header);
  const data = file.subarray(header);
  if (!file.subarray(MAGIC.length, MAGIC.length + HASH_BYTES).equals(sourceHash) || !dataHash.equals(sha256(data))) return undefined;
  return data;
}

/** Writes the cache atomically (another process may be reading or writing it); a failure only costs speed. */
function writeCache(cacheFile: string, sourceHash: Buffer, script: Script): void {
  const partial = `${cacheFile}.${process.pid}.tmp`;
  try {
    const data = script.createCachedData();
    mkdirSync(dirname(cacheFile), { recursive: true, mode: 0o700 });
    writeFileSync(partial, Buffer.concat([MAGIC, sourceHash, sha256(data), data]), { mode: 0o600 });
    renameSync(partial, cacheFile);
  } catch {
    // A read-only or full home: the next run compiles as usual.
    removeQuietly(partial);
  }
}

function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // Nothing more to do at exit.
  }
}

function sha256(bytes: Buffer | string): Buffer {
  // node:crypto is loaded only now: --version and --help never come here.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  return createHash('sha256').update(bytes).digest();
}
