// What the OS sandbox (core/sandbox) buys and costs. 1) Approval prompts at Semi-Auto through the
// real approval gate, without and with the sandbox, for the 40-iteration session of bench/context
// and a command-heavy task (install, build, test, format, git, reads, writes, inline scripts, a
// registry request). 2) That task run for real in the sandbox with hostile commands, HOME at a
// canary home: canary hashes unchanged, the planted key in no output. 3) The time a trivial command
// takes through ProcessManager.runForeground, sandboxed vs. not. Parts 2–3 are skipped, said so,
// where no sandbox can run.
import { CommandSandbox } from '../../src/core/sandbox/command-sandbox';
import { sandboxRuntime } from '../../src/core/sandbox/sandbox-runtime';
import { DEFAULT_SANDBOX_SETTINGS } from '../../src/core/config/sandbox-settings';
import { percentile, printTable } from '../stats';
import { runCanaries, type CommandOutcome } from './canary';
import { OVERHEAD_RUNS, measureOverhead } from './overhead';
import { countPrompts, type PromptCount } from './prompts';

export async function main(): Promise<void> {
  const replays = await countPrompts();
  const total = (side: 'without' | 'with') => replays.reduce((n, r) => n + r[side].asked.length, 0);
  printTable('approvals: prompts at Semi-Auto through the approval gate (every ask answered "allow")', [
    ...replays.map((r) => ({
      replay: r.name,
      calls: `${r.without.calls} (${r.without.commands} commands)`,
      'prompts without sandbox': prompts(r.without),
      'prompts with sandbox': prompts(r.with),
      reduction: pct(1 - r.with.asked.length / r.without.asked.length),
    })),
    { replay: 'both', calls: '', 'prompts without sandbox': String(total('without')), 'prompts with sandbox': String(total('with')), reduction: pct(1 - total('with') / total('without')) },
  ]);
  const still = replays.flatMap((r) => r.with.asked).map((a) => a.command ?? `${a.toolName}`);
  console.log(`  still asked with the sandbox: ${still.join(', ') || 'nothing'} (target: ≥ 80% fewer prompts)`);

  try {
    await sandboxedParts();
  } finally {
    // The runtime's proxies (one per process) would keep the process alive after the last benchmark.
    await (await sandboxRuntime()).manager.reset();
  }
}

async function sandboxedParts(): Promise<void> {
  const canary = await runCanaries();
  if (!canary.available) {
    console.log(`\napprovals: the sandbox is unavailable here (${canary.reason}); the canary and overhead parts are skipped.`);
    return;
  }
  const ran = canary.task.filter((t) => t.result === 'ok').length;
  const failed = canary.task.filter((t) => t.result !== 'ok');
  printTable(`approvals: the command-heavy task in the sandbox, HOME at a canary home (${canary.canaryFiles} files, a private key among them)`, [
    { check: 'task commands that succeeded', result: `${ran}/${canary.task.length}${failed.length ? ` (not: ${failed.map((f) => `\`${f.command}\` ${describe(f)}`).join('; ')})` : ''}` },
    ...canary.hostile.map((h, i) => ({ check: `hostile \`${h.command}\``, result: `run_command: ${describe(h)}; sandbox alone: ${describe(canary.sandboxAlone[i]!)}` })),
    { check: 'canary files changed', result: `${canary.changedAfterTask.length} after the task and run_command, ${canary.changedAfterAlone.length} after the sandbox alone${[...canary.changedAfterTask, ...canary.changedAfterAlone].length ? ` (${[...new Set([...canary.changedAfterTask, ...canary.changedAfterAlone])].join(', ')})` : ''}` },
    { check: 'the private key in any output', result: canary.secretInOutput ? 'YES' : 'no' },
  ]);

  const overhead = await measureOverhead((workspaceRoot) => new CommandSandbox({ settings: { ...DEFAULT_SANDBOX_SETTINGS }, workspaceRoot }));
  printTable(`approvals: per-command time through ProcessManager.runForeground, ×${OVERHEAD_RUNS} each after warm-up`, overhead.map((row) => {
    const b50 = percentile(row.bare, 50);
    const s50 = percentile(row.sandboxed, 50);
    return {
      command: row.command,
      'bare p50 ms': b50.toFixed(1),
      'bare p90 ms': percentile(row.bare, 90).toFixed(1),
      'sandboxed p50 ms': s50.toFixed(1),
      'sandboxed p90 ms': percentile(row.sandboxed, 90).toFixed(1),
      'added p50 ms': (s50 - b50).toFixed(1),
      'sandboxed/bare p50': `${(s50 / b50).toFixed(2)}×`,
    };
  }));
}

/** The count, and how many of them were for commands (the sandbox changes only those). */
function prompts(count: PromptCount): string {
  return `${count.asked.length} (${count.asked.filter((a) => a.command !== undefined).length} commands)`;
}

function describe(o: CommandOutcome): string {
  const what = o.result === 'refused' ? 'refused by a danger rule' : o.result;
  return `${what === 'ok' ? 'ran' : what}${o.blocked ? `, ${o.blocked} blocked` : ''}`;
}

function pct(ratio: number): string {
  return Number.isFinite(ratio) ? `${Math.round(ratio * 100)}%` : '—';
}
