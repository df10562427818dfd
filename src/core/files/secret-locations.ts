import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { resolveOpendevHome } from '../config/opendev-home';
import { realNearest } from './real-path';
import picomatch from 'picomatch';

/*
 * The secret locations: where keys, tokens and credentials live. No tool reads them, whatever
 * path or link leads there, and a command that names one asks at every level. A fixed list, the
 * OpenDev home (apart from the folders the session itself offers the model) and the user's own
 * `secretPaths` setting.
 */

/** Under the user's home folder. */
const HOME_SECRETS = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gcloud',
  '.azure',
  '.kube',
  '.docker/config.json',
  '.netrc',
  '.npmrc',
  '.git-credentials',
  '.config/git/credentials',
  '.pypirc',
  '.config/gh/hosts.yml',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.claude/.credentials.json',
  '.codex/auth.json',
  // Editor and desktop secret stores: GNOME keyring, KWallet, pass, the macOS keychains.
  '.local/share/keyrings',
  '.local/share/kwalletd',
  '.password-store',
  'Library/Keychains',
  // The default OpenDev home, even when OPENDEV_HOME points elsewhere: it may hold the real one.
  '.opendev',
];

/** Anywhere: a process's environment, the editors' secret databases (VS Code, code-server, their forks), JetBrains' credential store. */
const PATTERN_SECRETS: ReadonlyArray<{ shown: string; regex: RegExp; glob: string }> = [
  { shown: '/proc/*/environ', regex: /^\/proc\/[^/]+(?:\/task\/[^/]+)?\/environ$/, glob: '' },
  { shown: "an editor's secret store (User/globalStorage/state.vscdb)", regex: /(?:^|\/)User\/globalStorage\/state\.vscdb[^/]*$/, glob: '**/User/globalStorage/state.vscdb*' },
  { shown: "JetBrains' credential store", regex: /(?:^|\/)JetBrains\/[^/]+\/c\.(?:kdbx|pwd)$/, glob: '**/JetBrains/*/c.{kdbx,pwd}' },
];

/** Set once per host from the user's settings (`secretPaths`): more locations, `~` allowed, relative ones from the home folder. */
let userSecretPaths: readonly string[] = [];

export function configureSecretLocations(policy: { secretPaths?: readonly string[] }): void {
  userSecretPaths = [...(policy.secretPaths ?? [])];
}

interface Root {
  /** Absolute, as configured. */
  path: string;
  /** How the user knows it: `~/.ssh`. */
  shown: string;
  /** Part of the OpenDev home: the session's readable folders inside it are not secret. */
  opendev: boolean;
}

export interface SecretLookup {
  /** Folders the session itself points the model at (scratch, skills): not secret even inside the OpenDev home. */
  allow?: readonly string[];
  /** Default: the current home folder and environment. */
  home?: string;
  env?: NodeJS.ProcessEnv;
  /** A workspace inside the OpenDev home (tests, odd setups) keeps its own files readable. */
  workspace?: string;
}

/** The secret locations as they are now (home, OPENDEV_HOME, the user's setting). */
export class SecretLocations {
  private readonly roots: Root[];
  private readonly allow: readonly string[];
  private realRoots: Root[] | undefined;
  private realAllow: string[] | undefined;

  constructor(lookup: SecretLookup = {}) {
    this.roots = rootsFor(lookup.home ?? homedir(), resolveOpendevHome(lookup.env ?? process.env, lookup.home ?? homedir()), lookup.workspace);
    this.allow = (lookup.allow ?? []).map((p) => resolve(p));
  }

  /** The secret location `path` is in, judged by the path as written and by where it really leads (`real`, when known); undefined: none. */
  locate(path: string, real?: string): string | undefined {
    const absolute = resolve(path);
    const lexical = this.match(absolute, this.roots, this.allow);
    if (lexical) return lexical;
    this.realAllow ??= this.allow.map(realNearest);
    return this.match(real ?? realNearest(absolute), this.real(), this.realAllow);
  }

  /** By the path as written only (no file system access): for walks that never follow links. */
  locateWritten(path: string): string | undefined {
    return this.match(resolve(path), this.roots, this.allow);
  }

  /**
   * The secret location a shell glob (absolute, `*`, `?`, `[…]`; a variable read as `*`) could
   * name: it matches a location segment by segment (with bash's rule that a wildcard does not
   * match a leading dot), or it names a process environment (`/proc/*\/environ`).
   */
  locateGlob(pattern: string): string | undefined {
    const absolute = resolve(pattern);
    const posix = absolute.split(sep).join('/');
    const named = PATTERN_SECRETS.find((p) => p.regex.test(posix));
    if (named) return named.shown;
    const segments = posix.split('/').filter(Boolean).map(segmentMatcher);
    const [top, , third, , fifth] = segments;
    if (top?.('proc') && (third?.('environ') || (third?.('task') && fifth?.('environ')))) return PATTERN_SECRETS[0]!.shown;
    for (const r of [...this.roots, ...this.real()]) {
      const names = r.path.split(sep).join('/').split('/').filter(Boolean);
      if (segments.length < names.length || !names.every((name, i) => segments[i]!(name))) continue;
      if (!this.exempt(r, absolute, this.allow)) return r.shown;
    }
    return undefined;
  }

  /** The secret folders and files at or below `folder` (as written and real), for a search to exclude. */
  within(folder: string): string[] {
    const bases = [resolve(folder), realNearest(folder)];
    const found = new Set<string>();
    for (const r of [...this.roots, ...this.real()]) {
      if (bases.some((base) => isInside(base, r.path)) && !this.exempt(r, r.path, this.allow)) found.add(r.path);
    }
    return [...found];
  }

  /** Every location as written and where it really leads (the OpenDev home included: `allow` re-opens its session folders), for a sandbox to hide. */
  paths(): string[] {
    return [...new Set([...this.roots, ...this.real()].map((r) => r.path))];
  }

  /** Globs (from any folder) of the secret files that can sit anywhere, for a search to exclude. */
  static patternGlobs(): string[] {
    return PATTERN_SECRETS.map((p) => p.glob).filter(Boolean);
  }

  /** The locations where they really are (looked up once per lookup object). */
  private real(): Root[] {
    this.realRoots ??= this.roots.map((r) => ({ ...r, path: realRoot(r.path) }));
    return this.realRoots;
  }

  private match(absolute: string, roots: readonly Root[], allow: readonly string[]): string | undefined {
    const posix = absolute.split(sep).join('/');
    const pattern = PATTERN_SECRETS.find((p) => p.regex.test(posix));
    if (pattern) return pattern.shown;
    return roots.find((r) => isInside(r.path, absolute) && !this.exempt(r, absolute, allow))?.shown;
  }

  private exempt(root: Root, absolute: string, allow: readonly string[]): boolean {
    return root.opendev && allow.some((dir) => isInside(dir, absolute));
  }
}

/** The locations for a home, an OpenDev home and a workspace, built once per combination (a listing asks for them per entry). */
const rootLists = new Map<string, Root[]>();

function rootsFor(home: string, opendevHome: string, workspace: string | undefined): Root[] {
  const key = [home, opendevHome, workspace ?? '', ...userSecretPaths].join('\0');
  const known = rootLists.get(key);
  if (known) return known;
  const shown = (path: string) => (isInside(home, path) && path !== home ? `~/${relative(home, path).split(sep).join('/')}` : path);
  const root = (path: string, opendev = false): Root => ({ path, shown: shown(path), opendev });
  const inWorkspace = workspace === undefined ? undefined : resolve(workspace);
  const roots = [
    ...HOME_SECRETS.map((p) => root(join(home, p), p === '.opendev')),
    root(opendevHome, true),
    ...userSecretPaths.map((p) => root(expandHome(p, home))),
  ].filter((r) => !(r.opendev && inWorkspace !== undefined && isInside(r.path, inWorkspace)));
  if (rootLists.size >= MAX_REAL_ROOTS) rootLists.clear();
  rootLists.set(key, roots);
  return roots;
}

/**
 * Where each location really is, remembered for a moment: a listing or a symbol search resolves
 * hundreds of paths in a row, and most locations do not exist (a failed lookup is the slow kind).
 * The moment is short so that a location made a link later is seen soon after.
 */
const REAL_ROOT_MS = 2000;
const MAX_REAL_ROOTS = 500;
const realRoots = new Map<string, { at: number; real: string }>();

function realRoot(path: string): string {
  const now = Date.now();
  const known = realRoots.get(path);
  if (known && now - known.at < REAL_ROOT_MS) return known.real;
  if (realRoots.size >= MAX_REAL_ROOTS) realRoots.clear();
  const real = realNearest(path);
  realRoots.set(path, { at: now, real });
  return real;
}

/** `~` and `~/…` from the home folder; a relative path from the home folder too. */
export function expandHome(path: string, home: string): string {
  if (path === '~') return home;
  if (path.startsWith('~/') || path.startsWith('~\\')) return join(home, path.slice(2));
  return isAbsolute(path) ? resolve(path) : join(home, path);
}

/** One path segment of a shell glob: bash's reading (a wildcard never matches a leading dot), on picomatch. */
function segmentMatcher(segment: string): (name: string) => boolean {
  return picomatch(segment, { dot: false, posix: true, nonegate: true, nocase: FOLD_CASE });
}

/** Case-insensitive where the usual file systems are (macOS, Windows): `~/.SSH` is `~/.ssh` there. */
const FOLD_CASE = process.platform === 'darwin' || process.platform === 'win32';

function isInside(folder: string, absolute: string): boolean {
  const rel = FOLD_CASE ? relative(folder.toLowerCase(), absolute.toLowerCase()) : relative(folder, absolute);
  return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
