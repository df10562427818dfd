// The one test command (`npm test`): build, typecheck, lint, unit tests in Node, integration
// tests inside a real VS Code, and end-to-end UI tests in Chromium. Every stage runs even when
// an earlier one failed (except the build), and the last line is the total: "N passed, N failed".
//
// After the build, two lanes run side by side: the checks and the unit tests in one, the two VS Code
// stages (integration, then e2e) in the other. Much of each is waiting (a workbench starting, a
// process exiting), so together they take little more than the longer lane. Each lane's lines are
// prefixed with its stage; OPENDEV_TEST_SERIAL=1 runs the stages one after another, unprefixed.
//   node test/run.mjs [unit | integration | e2e]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { missingPackages, missingPackagesMessage } from './host/preflight.mjs';

const root = new URL('..', import.meta.url).pathname;

// Tests never touch the user's ~/.opendev and never reach for models.dev: every process they start
// (the CLI, the VS Code server and its extension host) inherits these.
process.env.OPENDEV_HOME ??= mkdtempSync(join(tmpdir(), 'opendev-home-'));
process.env.OPENDEV_DISABLE_REMOTE_MODELS ??= '1';
// Tests script every model call; the playbook's background reflection would take scripted turns.
// Its own tests turn it on (createMainAgent's playbookLearning, or OPENDEV_PLAYBOOK_LEARN=1).
process.env.OPENDEV_PLAYBOOK_LEARN ??= '0';
// Likewise the background session title (one compact-model call after the first exchange); its tests
// turn it on (SessionRecorder's generateTitles, or OPENDEV_SESSION_TITLES=1).
process.env.OPENDEV_SESSION_TITLES ??= '0';
// A step waits this long for its undo snapshot (default 2 s): on a loaded machine the default rightly
// gives up on a cold first snapshot, and a test that undoes the step needs it. The budget's own test sets it.
process.env.OPENDEV_UNDO_BUDGET_MS ??= '60000';
// The tests of the text rules judge commands as they are judged where no sandbox runs; the sandbox's
// own tests build it themselves or turn it on (OPENDEV_SANDBOX=1).
process.env.OPENDEV_SANDBOX ??= '0';
const only = process.argv[2]; // unit | integration | e2e (after build/typecheck/lint)
const serial = process.env.OPENDEV_TEST_SERIAL === '1';
const totals = { passed: 0, failed: 0, skipped: 0 };
const stages = [];
const started = Date.now();

/** Runs a command to its end; its output goes to ours, each line prefixed with `label` when lanes run side by side. */
function run(label, command, args, env = {}) {
  return new Promise((resolve) => {
    const prefixed = !serial && label;
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', prefixed ? 'pipe' : 'inherit', prefixed ? 'pipe' : 'inherit'], env: { ...process.env, ...env } });
    if (prefixed) {
      for (const [stream, out] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) {
        createInterface({ input: stream }).on('line', (line) => out.write(`[${label}] ${line}\n`));
      }
    }
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

async function check(name, command, args) {
  const t = Date.now();
  const ok = (await run(name, command, args)) === 0;
  record(name, ok ? 1 : 0, ok ? 0 : 1, 0, t);
  return ok;
}

function record(name, passed, failed, skipped, t) {
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  stages.push(`${name}: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
}

/** A stage that writes a JSON summary ({ passes, failures, pending } or { passed, failed }) to the file it is given. */
async function counted(name, command, args, env = {}) {
  const t = Date.now();
  const summary = join(mkdtempSync(join(tmpdir(), 'opendev-stage-')), 'summary.json');
  const status = await run(name, command, args(summary), env);
  if (!existsSync(summary)) return record(name, 0, 1, 0, t);
  const stats = JSON.parse(readFileSync(summary, 'utf8'));
  const passed = stats.passes ?? stats.passed;
  const failed = stats.failures ?? stats.failed;
  record(name, passed, failed + (status !== 0 && failed === 0 ? 1 : 0), stats.pending ?? 0, t);
}

/** Each lane has its own OPENDEV_HOME: what one stage's tests write there is not another's business. */
const ownHome = () => ({ OPENDEV_HOME: mkdtempSync(join(tmpdir(), 'opendev-home-')) });

const mocha = (name, glob, env) =>
  counted(name, process.execPath, (summary) => [
    'node_modules/mocha/bin/mocha.js', '--reporter', 'test/host/mocha-reporter.cjs',
    '--reporter-option', `summary=${summary}`, '--timeout', '120000', '--exit', glob,
  ], env);

const missing = missingPackages();
if (missing.length > 0) {
  console.log(`${missingPackagesMessage(missing)}\n0 passed, 1 failed`);
  process.exit(1);
}

console.log('▶ build');
if (!(await check('build', process.execPath, ['esbuild.config.mjs']))) {
  console.log('\nbuild failed: nothing else can run.\n0 passed, 1 failed');
  process.exit(1);
}

async function checksAndUnit() {
  console.log('▶ typecheck, lint' + (!only || only === 'unit' ? ', unit tests (Node)' : ''));
  await check('typecheck', 'npx', ['tsc', '--noEmit', '-p', '.']);
  await check('typecheck (webview)', 'npx', ['tsc', '--noEmit', '-p', 'webview']);
  await check('lint', process.execPath, ['scripts/lint.mjs']);
  if (!only || only === 'unit') await mocha('unit', 'out/test/unit/**/*.test.js', ownHome());
}

async function vscodeStages() {
  const env = ownHome();
  if (!only || only === 'integration') {
    console.log('▶ integration tests (inside VS Code)');
    const grep = process.env.OPENDEV_TEST_GREP;
    await counted('integration', process.execPath, (summary) => ['test/host/run-in-vscode.mjs', '--summary', summary, ...(grep ? ['--grep', grep] : [])], env);
  }
  if (!only || only === 'e2e') {
    console.log('▶ end-to-end tests (workbench UI in Chromium)');
    await mocha('e2e', 'out/test/e2e/**/*.test.js', env);
  }
}

if (serial) {
  await checksAndUnit();
  await vscodeStages();
} else {
  await Promise.all([checksAndUnit(), vscodeStages()]);
}

console.log(`\n${stages.join('\n')}\ntotal time ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(totals.failed > 0 ? 1 : 0);
