// Runs the real `dist/cli.js` in a child process, against the fake provider, with a private OPENDEV_HOME.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const repo = join(__dirname, '../../../..');
export const cli = join(repo, 'dist/cli.js');
export const workspace = join(repo, 'test/fixtures/workspace');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

const INHERITED_SETTINGS = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'OPENDEV_PROVIDER',
  'OPENDEV_MODEL',
  'OPENDEV_THINKING',
  'OPENDEV_HOME',
];

export function newHome(): string {
  return mkdtempSync(join(tmpdir(), 'opendev-home-'));
}

/** Starts the CLI; the caller reads and ends it. */
export function startCli(args: string[], env: Record<string, string | undefined>, options: { cwd?: string } = {}): ChildProcessWithoutNullStreams {
  const clean = { ...process.env };
  for (const key of INHERITED_SETTINGS) delete clean[key];
  return spawn(process.execPath, [cli, ...args], { env: { ...clean, ...env }, cwd: options.cwd ?? workspace });
}

/** Runs the CLI to the end; `input` is written to its stdin (which is then closed). */
export function opendev(args: string[], env: Record<string, string | undefined>, options: { cwd?: string; input?: string } = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = startCli(args, env, options);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
  });
}

/** Every stdout line of a stream-json run, parsed (a line that is not JSON fails the test). */
export function jsonLines(stdout: string): Array<Record<string, any>> {
  return stdout
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      try {
        return JSON.parse(l) as Record<string, any>;
      } catch {
        throw new Error(`stdout line ${i + 1} is not JSON: ${l}`);
      }
    });
}
