#!/usr/bin/env node
// Runs the integration tests (out/test/integration/index.js, built by `npm run build`) inside a real
// VS Code: the cached VS Code server plus its workbench in headless Chromium (TESTING.md §3).
// The test entry writes a mocha JSON report; this launcher waits for it and prints the results.
// Two passes: the ordinary one (Workspace Trust off, as every machine-driven run needs), then a short
// Restricted Mode one with Workspace Trust on and the folder not trusted, for *.restricted.test.js,
// and a multi-root one with a two-folder .code-workspace, for *.multiroot.test.js (each costs one
// more server and workbench start, about 15 s).
//   node test/host/run-in-vscode.mjs [--grep <substring of test title>] [--summary <file for the totals>]
// Env: OPENDEV_TEST_GREP, OPENDEV_EXTENSION_PATH / OPENDEV_TESTS_PATH (load another extension or test
// entry), OPENDEV_INTEGRATION_TIMEOUT_MS (default 30 min: one generous limit for a loaded machine), OPENDEV_KEEP_TMP=1 (keep the temp folder).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  copySampleWorkspace, ensureVSCodeServer, extensionHostExitCode, launchBrowser, makeTwoFolderWorkspace, repoRoot, startVSCodeServer, tail,
} from './vscode-server.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The report once mocha has written all of it (a partly written file does not parse). */
function readReport(file) {
  try { return JSON.parse(readFileSync(file, 'utf8')); } catch { return null; }
}

/** The Restricted Mode suites' titles start with this: a --grep that cannot match them skips that pass. */
const RESTRICTED_TITLE = 'restricted mode';
/** The multi-root suites' titles start with this: the same for the two-folder pass. */
const MULTI_ROOT_TITLE = 'multi-root';

/** Whether a pass whose suites' titles start with `title` may have a test that `grep` matches. */
const passMatches = (grep, title) => !grep || title.includes(grep.toLowerCase()) || grep.toLowerCase().includes(title);

/**
 * @param {{ grep?: string, extensionPath?: string, testsPath?: string, timeoutMs?: number,
 *   log?: (line: string) => void }} [options]
 * @returns {Promise<{ passed: number, failed: number, failures: { title: string, error: string }[] }>}
 *   a run that could not produce a report counts as one failure
 */
export async function runIntegration(options = {}) {
  const log = options.log ?? ((line) => console.log(line));
  const grep = options.grep ?? process.env.OPENDEV_TEST_GREP;
  // A grep for the multi-root suites only needs their pass.
  const onlyMultiRoot = grep?.toLowerCase().startsWith(MULTI_ROOT_TITLE);
  const passes = onlyMultiRoot ? [] : [await runPass({ ...options, grep, log })];
  if (!onlyMultiRoot && passMatches(grep, RESTRICTED_TITLE)) {
    log('[vscode] Restricted Mode pass (Workspace Trust on, the folder not trusted)');
    passes.push(await runPass({ ...options, grep, log, restrictedMode: true }));
  }
  if (passMatches(grep, MULTI_ROOT_TITLE)) {
    log('[vscode] multi-root pass (a two-folder .code-workspace)');
    passes.push(await runPass({ ...options, grep, log, multiRoot: true }));
  }
  if (passes.length === 1) return passes[0];
  const total = { passed: 0, failed: 0, failures: [] };
  for (const p of passes) Object.assign(total, { passed: total.passed + p.passed, failed: total.failed + p.failed, failures: [...total.failures, ...p.failures] });
  log(`integration (${passes.length} passes): ${total.passed} passed, ${total.failed} failed`);
  return total;
}

/**
 * One server, one workbench, one run of the test entry. `restrictedMode`: Workspace Trust is on and
 * the freshly copied folder not trusted (VS Code's Restricted Mode; its modal trust question stays
 * unanswered, the extension host runs regardless), and the entry runs only *.restricted.test.js.
 */
async function runPass({
  grep,
  extensionPath = process.env.OPENDEV_EXTENSION_PATH || repoRoot,
  testsPath = process.env.OPENDEV_TESTS_PATH || join(repoRoot, 'out', 'test', 'integration', 'index.js'),
  timeoutMs = Number(process.env.OPENDEV_INTEGRATION_TIMEOUT_MS) || 30 * 60_000,
  log,
  restrictedMode = false,
  multiRoot = false,
}) {
  const started = Date.now();
  const broken = (error) => {
    log(`  ✗ integration run: ${error}`);
    log('integration: 0 passed, 1 failed');
    return { passed: 0, failed: 1, failures: [{ title: 'integration run', error }] };
  };
  extensionPath = resolve(extensionPath);
  testsPath = resolve(testsPath);
  if (!existsSync(testsPath)) return broken(`no test entry at ${testsPath}: run \`npm run build\` first`);
  if (!existsSync(join(extensionPath, 'package.json'))) return broken(`no extension at ${extensionPath}`);

  const serverRoot = await ensureVSCodeServer({ log });
  const tmp = mkdtempSync(join(tmpdir(), 'opendev-integration-'));
  const report = join(tmp, 'report.json');
  const browserLog = join(tmp, 'browser.log');
  let server, browser, page;
  try {
    // The multi-root pass opens a .code-workspace with two folders instead of the one sample folder.
    const where = multiRoot ? { workspaceFile: makeTwoFolderWorkspace(tmp).workspaceFile } : { folder: copySampleWorkspace(tmp) };
    server = await startVSCodeServer({
      serverRoot,
      dataDir: join(tmp, 'vscode'),
      // Installed beside ours: an extension that provides a scripted model through VS Code's Language
      // Model API (off until a test enables it), for the vscode-lm provider's tests.
      extensions: [join(repoRoot, 'test', 'fixtures', 'lm-extension')],
      // The extension host inherits the server's environment: this is how the test entry learns where to report.
      env: {
        OPENDEV_TEST_REPORT: report,
        // The setup card looks for no local model server (a test that wants one names its fake).
        OPENDEV_LOCAL_SERVERS: '',
        ...(grep ? { OPENDEV_TEST_GREP: grep } : {}),
        ...(restrictedMode ? { OPENDEV_TEST_RESTRICTED_MODE: '1' } : {}),
        ...(multiRoot ? { OPENDEV_TEST_MULTI_ROOT: '1' } : {}),
      },
      ...(restrictedMode ? { userSettings: { 'security.workspace.trust.enabled': true } } : {}),
    });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    // console.* of the extension host (so of the tests) is forwarded to the page's console.
    writeFileSync(browserLog, '');
    // Drop the workbench's CSS styling markers ("%c INFO color: #33f …") to keep the file readable.
    const clean = (text) => text.replace(/^%c\s*(\w+)\s+color:\s*#\w+\s*/, '$1 ');
    page.on('console', (m) => writeFileSync(browserLog, `[${m.type()}] ${clean(m.text())}\n`, { flag: 'a' }));
    page.on('pageerror', (e) => writeFileSync(browserLog, `[pageerror] ${e.stack || e}\n`, { flag: 'a' }));
    log(`[vscode] running ${testsPath} against ${extensionPath}${grep ? ` (grep: ${grep})` : ''}`);
    // Within the run's one overall limit: a loaded machine loads the workbench slowly, not wrongly.
    await page.goto(server.workbenchUrl({ ...where, extensionDevelopmentPath: extensionPath, extensionTestsPath: testsPath }), { timeout: timeoutMs });

    // run() settling makes mocha write the report, then the extension host exits; wait for either.
    const deadline = Date.now() + timeoutMs;
    let results = null;
    let exitCode = null;
    while (!results && exitCode === null && Date.now() < deadline) {
      await sleep(500);
      results = readReport(report);
      exitCode = extensionHostExitCode(server.logFile);
    }
    results ??= readReport(report);

    let outcome;
    if (results) outcome = summarize(results, log);
    else {
      const why = exitCode !== null
        ? `extension host exited with code ${exitCode} without writing a report (the test entry failed to load or mocha could not run)`
        : `timed out after ${Math.round(timeoutMs / 1000)} s waiting for the test report`;
      log(`--- server log (tail) ---\n${tail(server.logFile)}\n--- browser console (tail) ---\n${tail(browserLog)}`);
      outcome = broken(why);
    }
    if (outcome.failed) await saveEvidence(page, server.logFile, browserLog, log);
    log(`[vscode] done in ${Math.round((Date.now() - started) / 1000)} s`);
    return outcome;
  } finally {
    await browser?.close().catch(() => {});
    await server?.stop();
    if (process.env.OPENDEV_KEEP_TMP) log(`[vscode] kept ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Prints every test of a mocha JSON report with ✓/✗, each failure's error and stack, then the summary line.
 * @returns {{ passed: number, failed: number, failures: { title: string, error: string, stack?: string }[] }}
 */
export function summarize(results, log = (line) => console.log(line)) {
  const failed = new Map(results.failures.map((t) => [t.fullTitle, t]));
  const seen = new Set();
  for (const t of results.tests) {
    seen.add(t.fullTitle);
    if (failed.has(t.fullTitle)) log(`  ✗ ${t.fullTitle}`);
    else if (results.pending.some((p) => p.fullTitle === t.fullTitle)) log(`  - ${t.fullTitle} (pending)`);
    else log(`  ✓ ${t.fullTitle}${t.duration > 100 ? ` (${t.duration} ms)` : ''}`);
  }
  // Failing hooks (before/after…) appear among failures but not among tests.
  for (const t of results.failures) if (!seen.has(t.fullTitle)) log(`  ✗ ${t.fullTitle}`);
  const failures = results.failures.map((t) => ({
    title: t.fullTitle,
    error: t.err?.message ?? String(t.err),
    stack: t.err?.stack,
  }));
  failures.forEach((f, i) => log(`\n  ${i + 1}) ${f.title}\n${indent(f.stack || f.error)}\n`));
  const passed = results.stats.passes;
  const failedCount = results.stats.failures;
  log(`integration: ${passed} passed, ${failedCount} failed`);
  return { passed, failed: failedCount, failures };
}

// Stack frames of Node, mocha and the extension host itself only hide the ones that matter.
const NOISE = /^\s*at .*(node:internal|extensionHostProcess\.js|node_modules\/mocha\/|\(<anonymous>\))/;
const indent = (text) => String(text).split('\n').filter((l) => !NOISE.test(l)).map((l) => `     ${l}`).join('\n');

/** A screenshot of the workbench and the logs, into test-results/ (git-ignored). */
async function saveEvidence(page, serverLog, browserLog, log) {
  const dir = join(repoRoot, 'test-results');
  mkdirSync(dir, { recursive: true });
  try {
    await page.screenshot({ path: join(dir, 'integration-failure.png') });
  } catch { /* page gone */ }
  for (const [from, to] of [[serverLog, 'integration-server.log'], [browserLog, 'integration-browser.log']]) {
    try { copyFileSync(from, join(dir, to)); } catch { /* missing */ }
  }
  log(`[vscode] screenshot and logs in ${dir}/integration-*`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const option = (name) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const grep = option('--grep');
  const summary = option('--summary'); // test/run.mjs adds up { passed, failed } from here
  try {
    const { passed, failed } = await runIntegration(grep ? { grep } : {});
    if (summary) writeFileSync(summary, JSON.stringify({ passed, failed }));
    process.exit(failed ? 1 : 0);
  } catch (err) {
    console.error(`integration: ${err.stack || err}`);
    process.exit(1);
  }
}
