// Runs inside VS Code's extension host (bench/ui loads it as the workbench's extensionTestsPath):
// times the extension's activation (loading its bundle and activate()) and keeps the extension host
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
  writeFileSync(`${out}.json`, JSON.stringify({ activationMs: performance.now() - started, wasActive, found: extension !== undefined }));
  while (!existsSync(`${out}.done`)) await new Promise((r) => setTimeout(r, 100));
}
