// Runs inside VS Code's extension host (bench/ui loads it as the workbench's extensionTestsPath):
// times the extension's activation as a caller of `activate()` sees it, and what of that is ours:
// the extension host loading our entry bundle (require of dist/extension.js) and our activate()
// call, timed around the module loader and the exported function; the rest is VS Code's own work
// in between (the activation request's round trip, its bookkeeping, other extensions' turns).
// Then the time until the rest of ours has loaded (right after activation, off its path), and it
// keeps the extension host up until the benchmark, driving the workbench from outside, says it is done.
import { existsSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { join } from 'node:path';
import * as vscode from 'vscode';

interface Loader {
  _load(request: string, parent: unknown, isMain: boolean): unknown;
  _resolveFilename(request: string, parent: unknown): string;
}

export async function run(): Promise<void> {
  const out = process.env.OPENDEV_BENCH_PROBE;
  if (!out) throw new Error('OPENDEV_BENCH_PROBE is not set: this module is run by bench/ui');
  const extension = vscode.extensions.getExtension('opendev.opendev');
  const wasActive = extension?.isActive ?? false;
  const started = performance.now();
  const ours = extension ? timeEntry(join(extension.extensionPath, (extension.packageJSON as { main: string }).main), started) : undefined;
  await extension?.activate();
  const activationMs = performance.now() - started;
  // The rest of the extension loads right after activation (a timer activate() set before ours): done when ours fires.
  await new Promise((r) => setTimeout(r, 0));
  const coreMs = performance.now() - started;
  ours?.restore();
  writeFileSync(`${out}.json`, JSON.stringify({ activationMs, coreMs, ...ours?.timing, wasActive, found: extension !== undefined }));
  while (!existsSync(`${out}.done`)) await new Promise((r) => setTimeout(r, 100));
}

/** When, from `started`, the extension host began loading our entry and called activate(), and how long each took. */
interface EntryTiming {
  loadStartMs?: number;
  loadMs?: number;
  activateStartMs?: number;
  activateMs?: number;
}

/**
 * Times the extension host's require of `main` (our bundle's load and top-level code) and the call of
 * the activate() it exports: the loader is wrapped until that require, the exports seen through a proxy.
 */
function timeEntry(main: string, started: number): { timing: EntryTiming; restore(): void } {
  const loader = Module as unknown as Loader;
  const original = loader._load;
  const timing: EntryTiming = {};
  const restore = () => void (loader._load = original);
  const target = loader._resolveFilename(main, null);
  loader._load = function (this: unknown, request: string, parent: unknown, isMain: boolean): unknown {
    let resolved: string | undefined;
    try {
      resolved = loader._resolveFilename(request, parent);
    } catch {
      // not a file of ours: the original loader says what is wrong
    }
    if (resolved !== target) return original.call(this, request, parent, isMain);
    restore();
    const loading = performance.now();
    timing.loadStartMs = loading - started;
    const exports = original.call(this, request, parent, isMain) as Record<string, unknown>;
    timing.loadMs = performance.now() - loading;
    return new Proxy(exports, {
      get(object, key, receiver) {
        const value = Reflect.get(object, key, receiver) as unknown;
        if (key !== 'activate' || typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const called = performance.now();
          timing.activateStartMs = called - started;
          try {
            return (value as (...a: unknown[]) => unknown)(...args);
          } finally {
            timing.activateMs = performance.now() - called;
          }
        };
      },
    });
  };
  return { timing, restore };
}
