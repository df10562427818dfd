// Helpers for the undo tests: a workspace's files as a comparable listing, and a real project repo.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * Every file under `root` (not `.git` folders, not `skip`): path → mode and content hash. Two equal
 * states mean byte-identical trees; empty folders are listed too (`dir/` → 'dir').
 */
export function workspaceState(root: string, skip: readonly string[] = []): Record<string, string> {
  const state: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const rel = relative(root, full);
      if (name === '.git' || skip.some((s) => rel === s || rel.startsWith(`${s}/`))) continue;
      const stat = lstatSync(full);
      if (stat.isDirectory()) {
        if (readdirSync(full).length === 0) state[`${rel}/`] = 'dir';
        walk(full);
      } else if (stat.isSymbolicLink()) state[rel] = `link ${readlinkSync(full)}`;
      else state[rel] = `${(stat.mode & 0o111) !== 0 ? 'x' : '-'} ${createHash('sha256').update(readFileSync(full)).digest('hex').slice(0, 16)}`;
    }
  };
  walk(root);
  return state;
}

/** Every file of a `.git` folder with its content hash: equal before and after means untouched. */
export function gitDirState(gitDir: string): Record<string, string> {
  const state: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const stat = lstatSync(full);
      if (stat.isDirectory()) walk(full);
      else state[relative(gitDir, full)] = `${stat.mtimeMs} ${createHash('sha256').update(readFileSync(full)).digest('hex')}`;
    }
  };
  walk(gitDir);
  return state;
}

/** `git` in the user's project, with an identity and no global config (the test machine's is not ours). */
export function projectGit(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=dev@example.com', '-c', 'user.name=Dev', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  });
}

/** A real git project with two commits and an uncommitted change, so HEAD, index and refs all hold something. */
export function initProjectRepo(root: string): void {
  projectGit(root, 'init', '-q');
  writeFiles(root, { 'README.md': '# demo\n', 'src/app.ts': 'export const app = 1;\n', '.gitignore': 'dist/\n*.log\n' });
  projectGit(root, 'add', '-A');
  projectGit(root, 'commit', '-qm', 'first');
  writeFiles(root, { 'src/util.ts': 'export const util = 2;\n' });
  projectGit(root, 'add', '-A');
  projectGit(root, 'commit', '-qm', 'second');
  projectGit(root, 'tag', 'v1');
  writeFiles(root, { 'src/app.ts': 'export const app = 1; // staged\n' });
  projectGit(root, 'add', 'src/app.ts');
}

export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}
