import { runGit } from '../git/run-git';
import { childEnv } from '../process/child-env';
import { repositoryGitPrograms } from '../safety/repository-git-programs';

/** The diff's cap, like read_file's output: head and tail kept. */
export const MAX_DIFF_CHARS = 30_000;
const HEAD_TAIL = 12_000;
const TIMEOUT_MS = 10_000;
/** More than a diff can show: past it, git is stopped rather than held in memory. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * A folder's own .git/config can name programs git runs while it reads (an fsmonitor, a textconv
 * driver): reading the user's changes for an @git mention must not run them.
 */
const NO_REPOSITORY_PROGRAMS = ['-c', 'core.fsmonitor=false'];

async function git(cwd: string, args: string[]): Promise<string> {
  const run = await runGit([...NO_REPOSITORY_PROGRAMS, ...args], { cwd, timeoutMs: TIMEOUT_MS, maxStdoutBytes: MAX_OUTPUT_BYTES, env: childEnv({ GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' }) });
  if (run.code === 0) return run.stdout.toString('utf8');
  const reason = run.killed ? 'git was stopped (time limit or output cap)' : `git ${args[0]} failed (exit ${run.code})`;
  throw new Error((run.stderr || reason).trim().split('\n')[0] || 'git failed');
}

/**
 * The working tree's changes as the real `git` reports them: `git diff HEAD` (staged and unstaged;
 * plain `git diff --cached` plus `git diff` before the first commit), then the untracked files by
 * name. Capped at MAX_DIFF_CHARS (head and tail kept). Throws when the folder is not in a repository.
 */
export async function workingTreeDiff(cwd: string, maxChars = MAX_DIFF_CHARS): Promise<string> {
  const inside = await git(cwd, ['rev-parse', '--is-inside-work-tree']).catch(() => '');
  if (inside.trim() !== 'true') throw new Error('the workspace is not a git repository');
  // A filter or driver the folder's own config names would run on `git diff`: not for a mention.
  const programs = repositoryGitPrograms(cwd);
  if (programs) throw new Error(`${programs}; run git yourself to see the changes`);
  const hasHead = await git(cwd, ['rev-parse', '--verify', '--quiet', 'HEAD']).then(() => true, () => false);
  const diff = hasHead
    ? await git(cwd, ['diff', '--no-color', '--no-ext-diff', '--no-textconv', 'HEAD'])
    : (await git(cwd, ['diff', '--no-color', '--no-ext-diff', '--no-textconv', '--cached'])) + (await git(cwd, ['diff', '--no-color', '--no-ext-diff', '--no-textconv']));
  const untracked = (await git(cwd, ['ls-files', '--others', '--exclude-standard'])).split('\n').filter(Boolean);
  const parts = [diff.trimEnd() || 'No changes to tracked files.'];
  if (untracked.length > 0) {
    const shown = untracked.slice(0, 100);
    parts.push(`Untracked files (${untracked.length}):\n${shown.join('\n')}${untracked.length > shown.length ? `\n… ${untracked.length - shown.length} more` : ''}`);
  }
  return cap(parts.join('\n\n'), maxChars);
}

function cap(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const keep = Math.min(HEAD_TAIL, Math.floor(maxChars / 2));
  return `${text.slice(0, keep)}\n… [${(text.length - 2 * keep).toLocaleString('en-US')} characters of the diff omitted] …\n${text.slice(-keep)}`;
}
