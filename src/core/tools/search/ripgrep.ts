import { childProcess } from '../../lazy-builtins';
import { childEnv } from '../../process/child-env';
import type { SearchBudget } from './budget';
import { LineSplitter, normalizeRgPath, RG_MAX_COLUMNS, RgOutputReader } from './rg-output';
import type { MatchCollector } from './results';

export type CaseMode = 'smart' | 'sensitive' | 'insensitive';

export interface RgTextQuery {
  pattern: string;
  glob?: string;
  contextLines: number;
  caseMode: CaseMode;
  maxResults: number;
  /** Use the PCRE2 engine (look-around, backreferences). */
  pcre2?: boolean;
  /** Never searched, after the glob so it wins (gitignore syntax from the workspace root): the secret locations inside it. */
  exclude?: readonly string[];
}

export interface RgRun {
  exitCode: number | null;
  stderr: string;
  /** Binary files that matched (text searches): ripgrep names them without lines. */
  binaryMatches?: number;
}

/** Flags shared by every ripgrep call: no user config, .gitignore honoured even outside a git repository. */
const BASE_FLAGS = ['--no-config', '--no-require-git'];

/**
 * ripgrep's arguments for a text search of `targets` (workspace-relative: '.', folders, files).
 * `tool`: what the search tool parses (RgOutputReader); `plain`: what a person would type, the
 * benchmark's baseline.
 */
export function textSearchArgs(query: RgTextQuery, mode: 'tool' | 'plain', targets: readonly string[]): string[] {
  const caseFlag = { smart: '--smart-case', sensitive: '--case-sensitive', insensitive: '--ignore-case' }[query.caseMode];
  const output =
    mode === 'tool'
      ? ['--null', '--line-number', '--column', '--with-filename', '--no-heading', '--color', 'never', '--max-columns', String(RG_MAX_COLUMNS), '--max-columns-preview']
      : ['--line-number', '--with-filename'];
  return [
    ...output,
    '--context',
    String(query.contextLines),
    ...BASE_FLAGS,
    caseFlag,
    ...(query.pcre2 ? ['--pcre2'] : []),
    ...(query.glob ? ['--glob', query.glob] : []),
    ...excludeFlags(query.exclude),
    '--regexp',
    query.pattern,
    '--',
    ...targets,
  ];
}

/** Runs the search and feeds ripgrep's output into `collector`. */
export async function ripgrepText(rgPath: string, cwd: string, query: RgTextQuery, target: string, collector: MatchCollector, budget: SearchBudget): Promise<RgRun> {
  const reader = new RgOutputReader(collector, query.maxResults, query.contextLines);
  const run = await runRipgrep(rgPath, cwd, textSearchArgs(query, 'tool', [target]), budget, new LineSplitter(reader));
  reader.finish();
  return { ...run, binaryMatches: reader.binaryMatches };
}

/** `rg --files`: the files ripgrep would search under `target`, workspace-relative and sorted. */
export async function ripgrepFiles(rgPath: string, cwd: string, target: string, glob: string | undefined, budget: SearchBudget, exclude?: readonly string[]): Promise<RgRun & { files: string[] }> {
  const files: string[] = [];
  const sink = {
    wantsLine: () => true,
    line: (line: Buffer) => {
      if (line.length > 0) files.push(normalizeRgPath(line.toString('utf8')));
    },
  };
  const run = await runRipgrep(rgPath, cwd, ['--files', ...BASE_FLAGS, ...(glob ? ['--glob', glob] : []), ...excludeFlags(exclude), '--', target], budget, new LineSplitter(sink));
  files.sort();
  return { ...run, files };
}

/** `--glob !…` for each excluded path: a later glob wins over the user's. */
function excludeFlags(exclude: readonly string[] | undefined): string[] {
  return (exclude ?? []).flatMap((line) => ['--glob', `!${line}`]);
}

function runRipgrep(rgPath: string, cwd: string, args: string[], budget: SearchBudget, stdout: LineSplitter): Promise<RgRun> {
  return new Promise((resolve, reject) => {
    const child = childProcess().spawn(rgPath, args, { cwd, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    const kill = (): void => {
      child.kill('SIGKILL');
    };
    if (budget.signal.aborted) kill();
    else budget.signal.addEventListener('abort', kill, { once: true });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 16_384) stderr += chunk;
    });
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.on('error', (err) => {
      budget.signal.removeEventListener('abort', kill);
      reject(err);
    });
    child.on('close', (code) => {
      budget.signal.removeEventListener('abort', kill);
      resolve({ exitCode: code, stderr });
    });
  });
}
