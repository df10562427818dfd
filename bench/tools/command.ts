// Per-command overhead of run_command (danger gate, preparation, a process group of its own, output
// buffers, result formatting) relative to a bare child_process spawn of the same `bash -c` line.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ProcessManager } from '../../src/core/process/process-manager';
import { shellCommand } from '../../src/core/process/process-group';
import { runCommandTool } from '../../src/core/tools/run-command';
import { toolContext } from '../../test/helpers/tool-context';
import { percentile, printTable } from '../stats';

const RUNS = 50;
const COMMANDS = ['true', 'echo hi', 'seq 1 10000'];

function bare(command: string, cwd: string): Promise<void> {
  const { file, args } = shellCommand(command);
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

async function timeRuns(run: () => Promise<unknown>, n: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return samples;
}

export async function commandBench(): Promise<Array<Record<string, string>>> {
  const root = mkdtempSync(join(tmpdir(), 'opendev-bench-cmd-'));
  const processes = new ProcessManager({ tasksDir: join(root, '.tasks') });
  const ctx = toolContext({ workspaceRoot: root, processes });
  const rows: Array<Record<string, string>> = [];
  try {
    for (const command of COMMANDS) {
      // Warm-up, then interleave the two so machine noise hits both alike.
      await timeRuns(() => bare(command, root), 5);
      await timeRuns(() => runCommandTool.run({ command }, ctx), 5);
      const bareSamples: number[] = [];
      const toolSamples: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        bareSamples.push(...(await timeRuns(() => bare(command, root), 1)));
        toolSamples.push(...(await timeRuns(async () => {
          const r = await runCommandTool.run({ command }, ctx);
          if (!r.ok) throw new Error(`bench command failed: ${r.output}`);
        }, 1)));
      }
      const b50 = percentile(bareSamples, 50);
      const t50 = percentile(toolSamples, 50);
      rows.push({
        command: `${command} ×${RUNS}`,
        'spawn p50 ms': b50.toFixed(2),
        'spawn p95 ms': percentile(bareSamples, 95).toFixed(2),
        'run_command p50 ms': t50.toFixed(2),
        'run_command p95 ms': percentile(toolSamples, 95).toFixed(2),
        'overhead p50 ms': (t50 - b50).toFixed(2),
        'ratio p50': `${(t50 / b50).toFixed(2)}×`,
      });
    }
  } finally {
    await processes.shutdown();
    rmSync(root, { recursive: true, force: true });
  }
  return rows;
}

if (require.main === module) {
  void commandBench().then((rows) => printTable('run_command overhead vs a bare child_process spawn (bash -c)', rows));
}
