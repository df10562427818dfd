// `npm run bench -- startup`: how fast the CLI answers, as ratios to a bare `node -e 0` measured in the
// same run (interleaved, so machine load hits every row alike): `opendev --version` and `--help` to
// exit, and `opendev -p hello` from spawn to its first model request arriving at the fake provider on
// 127.0.0.1 (the real dist/cli.js in a child process, as a user runs it). Medians of
// OPENDEV_BENCH_STARTUP_RUNS runs (default 15).
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeProvider } from '../../test/fixtures/fake-provider';
import { percentile, printTable } from '../stats';

const repo = join(__dirname, '../../..');
const cli = join(repo, 'dist/cli.js');

/** One spawn, timed from spawn to exit; rejects on a non-zero exit (a broken CLI must not look fast). */
function timeToExit(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`))));
  });
}

/** `opendev -p hello`: spawn → the first model request read by the fake provider; also spawn → exit. */
async function timeToFirstRequest(fake: FakeProvider, env: NodeJS.ProcessEnv, workspace: string): Promise<{ firstRequestMs: number; exitMs: number }> {
  let arrived: number | undefined;
  fake.reset();
  fake.setResponder(() => {
    arrived ??= performance.now();
    return { text: 'Hello.' };
  });
  const started = performance.now();
  const exitMs = await timeToExit([cli, '-p', 'hello', '-C', workspace], env);
  if (arrived === undefined) throw new Error('opendev -p hello exited without a model request');
  return { firstRequestMs: arrived - started, exitMs };
}

export async function main(): Promise<void> {
  const runs = Number(process.env.OPENDEV_BENCH_STARTUP_RUNS) || 15;
  const fake = new FakeProvider();
  await fake.start();
  const tmp = mkdtempSync(join(tmpdir(), 'opendev-bench-startup-'));
  const workspace = join(tmp, 'workspace');
  cpSync(join(repo, 'test/fixtures/workspace'), workspace, { recursive: true });
  // A user's setup: a key and an endpoint, a home of their own (the first run creates it: one warm-up
  // run). No download of the model catalogue: as when it is cached, and the bench needs no network.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    OPENAI_API_KEY: 'bench-key',
    OPENAI_BASE_URL: fake.openaiBaseUrl,
    OPENDEV_HOME: join(tmp, 'home'),
    OPENDEV_DISABLE_REMOTE_MODELS: '1',
  };
  for (const key of ['OPENDEV_PROVIDER', 'OPENDEV_MODEL', 'ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL']) delete env[key];

  const samples = { bare: [] as number[], version: [] as number[], help: [] as number[], first: [] as number[], exit: [] as number[] };
  try {
    await timeToFirstRequest(fake, env, workspace);
    for (let i = 0; i < runs; i++) {
      samples.bare.push(await timeToExit(['-e', '0']));
      samples.version.push(await timeToExit([cli, '--version']));
      samples.help.push(await timeToExit([cli, '--help']));
      const p = await timeToFirstRequest(fake, env, workspace);
      samples.first.push(p.firstRequestMs);
      samples.exit.push(p.exitMs);
    }
  } finally {
    await fake.stop();
  }

  const base = percentile(samples.bare, 50);
  const row = (what: string, values: number[], target: string) => {
    const median = percentile(values, 50);
    return { what, median: `${median.toFixed(0)} ms`, p90: `${percentile(values, 90).toFixed(0)} ms`, 'vs node -e 0': `${(median / base).toFixed(2)}×`, target };
  };
  printTable(`startup: dist/cli.js, medians of ${runs} runs, interleaved with a bare node (Node ${process.version})`, [
    row('node -e 0 (baseline)', samples.bare, ''),
    row('opendev --version', samples.version, '≤ 1.3×'),
    row('opendev --help', samples.help, ''),
    row('opendev -p hello: first model request', samples.first, '≤ 2.5×'),
    row('opendev -p hello: answered and exited', samples.exit, ''),
  ]);
}
