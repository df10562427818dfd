// What reading the user's shell profile costs: the session's first command with the capture (the
// user's real $SHELL, login + interactive, in their home) against a first command without it, in
// the same run. Later commands reuse the captured environment and pay nothing for it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ProcessManager } from '../../src/core/process/process-manager';
import { SessionShell } from '../../src/core/process/session-shell';
import { runCommandTool } from '../../src/core/tools/run-command';
import { toolContext } from '../../test/helpers/tool-context';
import { percentile } from '../stats';

const RUNS = 10;

async function firstCommand(root: string, shell: SessionShell | undefined): Promise<number> {
  const processes = new ProcessManager({ tasksDir: join(root, '.tasks'), ...(shell ? { shell } : {}) });
  try {
    const start = performance.now();
    const r = await runCommandTool.run({ command: 'true' }, toolContext({ workspaceRoot: root, processes }));
    if (!r.ok) throw new Error(`bench command failed: ${r.output}`);
    return performance.now() - start;
  } finally {
    await processes.shutdown();
  }
}

export async function shellSnapshotBench(): Promise<Array<Record<string, string>>> {
  const root = mkdtempSync(join(tmpdir(), 'opendev-bench-shell-'));
  const userShell = process.env.SHELL ?? '/bin/bash';
  const without: number[] = [];
  const withCapture: number[] = [];
  const capture: number[] = [];
  try {
    // Interleaved, so machine noise hits both alike.
    for (let i = 0; i < RUNS; i++) {
      without.push(await firstCommand(root, undefined));
      const shell = new SessionShell({ userShell });
      withCapture.push(await firstCommand(root, shell));
      if (shell.outcome?.reason) throw new Error(`the profile could not be read: ${shell.outcome.reason}`);
      capture.push(shell.outcome?.ms ?? 0);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const w50 = percentile(without, 50);
  const c50 = percentile(withCapture, 50);
  return [{
    shell: `${userShell} ×${RUNS}`,
    'first command p50 ms': w50.toFixed(1),
    'first command + profile p50 ms': c50.toFixed(1),
    'profile capture p50 ms': percentile(capture, 50).toFixed(1),
    'capture p95 ms': percentile(capture, 95).toFixed(1),
    'ratio p50': `${(c50 / w50).toFixed(2)}×`,
  }];
}
