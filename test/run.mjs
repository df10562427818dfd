// The one test command (`npm test`): build, typecheck, lint, unit tests in Node, integration
// tests inside a real VS Code, and end-to-end UI tests in Chromium. Every stage runs even when
// an earlier one failed (except the build), and the last line is the total: "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
// The tests of the text rules judge commands as they are judged where no sandbox runs; the sandbox's
// own tests build it themselves or turn it on (OPENDEV_SANDBOX=1).
process.env.OPENDEV_SANDBOX ??= '0';
const only = process.argv[2]; // unit | integration | e2e (after build/typecheck/lint)
const totals = { passed: 0, failed: 0, skipped: 0 };
const stages = [];
const started = Date.now();

function run(command, args, env = {}) {
  return spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;
}

function check(name, command, args) {
  const t = Date.now();
  const ok = run(command, args) === 0;
  record(name, ok ? 1 : 0, ok ? 0 : 1, 0, t);
  return ok;
}

function record(name, passed, failed, skipped, t) {
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  stages.push(`${name}: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
}

function mocha(name, glob) {
  const t = Date.now();
  const summary = join(mkdtempSync(join(tmpdir(), 'opendev-mocha-')), 'summary.json');
  const status = run(process.execPath, [
    'node_modules/mocha/bin/mocha.js', '--reporter', 'test/host/mocha-reporter.cjs',
    '--reporter-option', `summary=${summary}`, '--timeout', '120000', '--exit', glob,
  ]);
  if (!existsSync(summary)) return record(name, 0, 1, 0, t);
  const stats = JSON.parse(readFileSync(summary, 'utf8'));
  record(name, stats.passes, stats.failures + (status !== 0 && stats.failures === 0 ? 1 : 0), stats.pending, t);
}

const missing = missingPackages();
if (missing.length > 0) {
  console.log(`${missingPackagesMessage(missing)}\n0 passed, 1 failed`);
  process.exit(1);
}

console.log('▶ build');
if (!check('build', process.execPath, ['esbuild.config.mjs'])) {
  console.log('\nbuild failed: nothing else can run.\n0 passed, 1 failed');
  process.exit(1);
}
console.log('▶ typecheck');
check('typecheck', 'npx', ['tsc', '--noEmit', '-p', '.']);
check('typecheck (webview)', 'npx', ['tsc', '--noEmit', '-p', 'webview']);
console.log('▶ lint');
check('lint', process.execPath, ['scripts/lint.mjs']);

if (!only || only === 'unit') {
  console.log('▶ unit tests (Node)');
  mocha('unit', 'out/test/unit/**/*.test.js');
}
if (!only || only === 'integration') {
  console.log('▶ integration tests (inside VS Code)');
  const t = Date.now();
  const { runIntegration } = await import('./host/run-in-vscode.mjs');
  try {
    const r = await runIntegration({ grep: process.env.OPENDEV_TEST_GREP });
    record('integration', r.passed, r.failed, 0, t);
  } catch (err) {
    console.error(err);
    record('integration', 0, 1, 0, t);
  }
}
if (!only || only === 'e2e') {
  console.log('▶ end-to-end tests (workbench UI in Chromium)');
  mocha('e2e', 'out/test/e2e/**/*.test.js');
}

console.log(`\n${stages.join('\n')}\ntotal time ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(totals.failed > 0 ? 1 : 0);
