#!/usr/bin/env node
// Second integration launcher, for desktops with internet: @vscode/test-electron downloads a desktop
// VS Code (into .vscode-test/) and runs the same test entry as run-in-vscode.mjs. Machines that reach
// only npm and apt cannot download it; they use run-in-vscode.mjs (the default `npm test` path).
//   npm run test:electron   (builds first)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { summarize } from './run-in-vscode.mjs';
import { copySampleWorkspace, repoRoot } from './vscode-server.mjs';

const tmp = mkdtempSync(join(tmpdir(), 'opendev-electron-'));
const report = join(tmp, 'report.json');
let failed = 1;
try {
  const workspace = copySampleWorkspace(tmp);
  const extensionTestsEnv = { OPENDEV_TEST_REPORT: report };
  if (process.env.OPENDEV_TEST_GREP) extensionTestsEnv.OPENDEV_TEST_GREP = process.env.OPENDEV_TEST_GREP;
  try {
    await runTests({
      extensionDevelopmentPath: process.env.OPENDEV_EXTENSION_PATH || repoRoot,
      extensionTestsPath: process.env.OPENDEV_TESTS_PATH || join(repoRoot, 'out', 'test', 'integration', 'index.js'),
      launchArgs: [workspace, '--disable-extensions'],
      extensionTestsEnv,
    });
  } catch (err) {
    // A non-zero exit is expected when tests fail; the report below says which.
    console.error(`[electron] ${err.message || err}`);
  }
  let results = null;
  try { results = JSON.parse(readFileSync(report, 'utf8')); } catch { /* no report */ }
  if (!results) {
    console.log('  ✗ integration run: VS Code exited without writing a test report');
    console.log('integration: 0 passed, 1 failed');
  } else {
    failed = summarize(results).failed;
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
