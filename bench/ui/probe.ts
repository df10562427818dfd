// Runs inside VS Code's extension host (bench/ui loads it as the workbench's extensionTestsPath):
// times the extension's activation (loading its bundle and activate()), then until the rest of it has
// loaded (right after activation, off its path), and keeps the extension host
// up until the benchmark, driving the workbench from outside, says it is done.
import { existsSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';

export async function run(): Promise<void> {
  const out = process.env.OPENDEV_BENCH_PROBE;
  if (!out) throw new Error('OPENDEV_BENCH_PROBE is not set: this module is run by bench/ui');
  const extension = vscode.extensions.getExtension('opendev.opendev');
  const wasActive = extension?.isActive ?? false;
  const started = performance.now();
  await extension?.activate();
  const activationMs = performance.now() - started;
  // The rest of the extension loads right after activation (a timer activate() set before ours): done when ours fires.
  await new Promise((r) => setTimeout(r, 0));
  const coreMs = performance.now() - started;
  writeFileSync(`${out}.json`, JSON.stringify({ activationMs, coreMs, wasActive, found: extension !== undefined }));
  while (!existsSync(`${out}.done`)) await new Promise((r) => setTimeout(r, 100));
}
