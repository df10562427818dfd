// What the sandbox costs per command: a trivial command through ProcessManager.runForeground, bare
// and sandboxed (the wrap, the bubblewrap start, and reading what it blocked, as run_command does),
// runs interleaved so machine noise hits both alike.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ProcessManager } from '../../src/core/process/process-manager';
import type { CommandSandbox } from '../../src/core/sandbox/command-sandbox';

export const OVERHEAD_RUNS = 30;
const WARM_UPS = 3;
const COMMANDS = ['true', 'echo hi > f'];

export interface OverheadRow {
  command: string;
  bare: number[];
  sandboxed: number[];
}

export async function measureOverhead(makeSandbox: (workspaceRoot: string) => CommandSandbox): Promise<OverheadRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'opendev-bench-overhead-'));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  const sandbox = makeSandbox(workspace);
  const processes = new ProcessManager({ tasksDir: join(root, 'tasks'), sandbox });
  const once = async (command: string, sandboxed: boolean): Promise<number> => {
    const start = performance.now();
    if (sandboxed) {
      const launch = (await sandbox.wrap(command, workspace))!;
      const outcome = await processes.runForeground({ command, launch: launch.line, cwd: workspace, env: launch.env });
      launch.finish(outcome.output);
      if (outcome.exitCode !== 0) throw new Error(`sandboxed \`${command}\` failed: ${outcome.output}`);
    } else {
      const outcome = await processes.runForeground({ command, cwd: workspace, env: {} });
      if (outcome.exitCode !== 0) throw new Error(`\`${command}\` failed: ${outcome.output}`);
    }
    return performance.now() - start;
  };
  try {
    const rows: OverheadRow[] = [];
    for (const command of COMMANDS) {
      for (let i = 0; i < WARM_UPS; i++) {
        await once(command, false);
        await once(command, true);
      }
      const row: OverheadRow = { command, bare: [], sandboxed: [] };
      for (let i = 0; i < OVERHEAD_RUNS; i++) {
        row.bare.push(await once(command, false));
        row.sandboxed.push(await once(command, true));
      }
      rows.push(row);
    }
    return rows;
  } finally {
    await processes.shutdown();
    rmSync(root, { recursive: true, force: true });
  }
}
