// Entry point VS Code's extension host loads as `extensionTestsPath` (code-server launcher and
// @vscode/test-electron alike): runs every compiled *.test.js below this folder with mocha and writes
// the results as JSON to OPENDEV_TEST_REPORT, which the launcher reads. The extension host's exit
// code says too little (under the VS Code server it is 0 even when run() rejects), hence the file.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

function findTests(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findTests(full));
    else if (entry.name.endsWith('.test.js')) found.push(full);
  }
  return found.sort();
}

/** Resolves once mocha has finished, even with failing tests; rejects only if mocha could not run. */
export async function run(): Promise<void> {
  const report = process.env.OPENDEV_TEST_REPORT;
  const mocha = new Mocha({
    ui: 'bdd',
    timeout: 60_000,
    color: false,
    // Without a report file (someone ran the entry by hand) print the results to the console instead.
    reporter: report ? 'json' : 'spec',
    reporterOptions: report ? { output: report } : undefined,
    // A plain substring of the full test title, not a regular expression.
    grep: process.env.OPENDEV_TEST_GREP || undefined,
  });
  // *.restricted.test.js run only in the launcher's Restricted Mode pass (Workspace Trust on, the
  // folder not trusted: run-in-vscode.mjs), the others only in the ordinary pass.
  // *.multiroot.test.js only in its multi-root pass (a two-folder .code-workspace).
  const pass = process.env.OPENDEV_TEST_RESTRICTED_MODE === '1' ? '.restricted.test.js' : process.env.OPENDEV_TEST_MULTI_ROOT === '1' ? '.multiroot.test.js' : '';
  const passOf = (file: string) => ['.restricted.test.js', '.multiroot.test.js'].find((suffix) => file.endsWith(suffix)) ?? '';
  for (const file of findTests(__dirname)) if (passOf(file) === pass) mocha.addFile(file);
  await new Promise<void>((resolve, reject) => {
    try {
      mocha.run(() => resolve());
    } catch (err) {
      // Typically a test file that throws while loading. Report it, else the launcher only sees
      // "no report" and the error is buried in the workbench's console.
      if (report) writeLoadFailure(report, err);
      reject(err);
    }
  });
}

/** A report in mocha's JSON reporter format holding one failure. */
function writeLoadFailure(report: string, err: unknown): void {
  const e = err instanceof Error ? err : new Error(String(err));
  const failure = { title: 'load', fullTitle: 'integration tests could not be loaded', duration: 0, err: { message: e.message, stack: e.stack } };
  const stats = { suites: 0, tests: 0, passes: 0, pending: 0, failures: 1 };
  fs.mkdirSync(path.dirname(report), { recursive: true });
  fs.writeFileSync(report, JSON.stringify({ stats, tests: [], pending: [], failures: [failure], passes: [] }, null, 2));
}
