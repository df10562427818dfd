// Model calls per step (issue 15): what the harness spends besides the agent's own action calls.
// bench/context's 40-iteration session and a short chat (four trivial messages, then a
// read-then-edit task) are replayed through the real agent against the fake provider at the
// user's defaults (the built-in defaults alone: nothing from the environment, so the test suite's
// OPENDEV_PLAYBOOK_LEARN=0 / OPENDEV_SESSION_TITLES=0 do not leak in), and again in the same run at
// the defaults before this issue, set explicitly. Every request is told apart by the purpose the
// agent gives its call. Tokens are prompt + output as the fake reports them (~4 characters a token).
import { resolveLayeredSettings } from '../../src/core/config/layered-settings';
import type { EffectiveValues } from '../../src/core/config/merge-settings';
import type { LayerValues } from '../../src/core/config/settings-values';
import { CALL_PURPOSES, isAuxiliary, type CallPurpose } from '../../src/core/llm/call-purpose';
import { FakeProvider, type ScriptedToolCall } from '../../test/fixtures/fake-provider';
import { LONG_SESSION, LONG_SESSION_ITERATIONS, type SessionTask } from '../../test/fixtures/long-session/script';
import { createLongSessionWorkspace } from '../../test/fixtures/long-session/workspace';
import { printTable } from '../stats';
import { replay, type KindTally, type Replay } from './replay';

/** The defaults before issue 15: thinking before every step, memory and the playbook every 5 messages, every session titled by the model. */
const OLD_DEFAULTS: LayerValues = { thinkingCadence: 'every-step', 'playbook.reflectEvery': 5, 'memory.summaryEvery': 5, sessionTitles: 'model' };

/** The window of bench/context's first table. */
const WINDOW = 32_000;

const read = (file_path: string): ScriptedToolCall => ({ name: 'read_file', arguments: { file_path } });

/** Four messages a chat gets every day, then a small task: read a file, edit it, say so. */
const SHORT_CHAT: readonly SessionTask[] = [
  { prompt: 'hello', steps: [] },
  { prompt: 'what can you do in this project?', steps: [] },
  { prompt: 'thanks!', steps: [] },
  { prompt: 'ok', steps: [] },
  {
    prompt: 'In src/currency.ts, make roundCents round halves away from zero for negative amounts too.',
    steps: [
      read('src/currency.ts'),
      {
        name: 'edit_file',
        arguments: { file_path: 'src/currency.ts', old_content: '  return Math.round(value);', new_content: '  return Math.sign(value) * Math.round(Math.abs(value));' },
      },
    ],
  },
];

/** The built-in defaults under `overrides`, and nothing else. */
function defaults(overrides: LayerValues = {}): EffectiveValues {
  return resolveLayeredSettings({ env: {}, user: { passthrough: {}, problems: [] }, defaults: overrides }).effective.values;
}

export async function main(): Promise<void> {
  const fake = new FakeProvider();
  await fake.start();
  try {
    const before = defaults(OLD_DEFAULTS);
    const after = defaults();
    const scenarios = [
      { name: `the ${LONG_SESSION_ITERATIONS}-iteration session of bench/context (window ${WINDOW.toLocaleString('en-US')})`, tasks: LONG_SESSION, window: WINDOW },
      { name: 'a short chat: 4 trivial messages, then read-then-edit', tasks: SHORT_CHAT, window: undefined },
    ];
    const totals = { before: [] as Replay[], after: [] as Replay[] };
    for (const scenario of scenarios) {
      const run = (settings: EffectiveValues) => replay(fake, { tasks: scenario.tasks, workspace: createLongSessionWorkspace(), settings, contextWindow: scenario.window });
      const old = await run(before);
      const now = await run(after);
      totals.before.push(old);
      totals.after.push(now);
      printTable(`cost: ${scenario.name}; requests and tokens per kind, old defaults → new defaults`, kindRows(old, now));
      console.log(`  ${ratios('old', old)}; ${ratios('new', now)}; tasks completed ${old.completed}/${old.tasks} → ${now.completed}/${now.tasks}`);
    }
    // The issue's other figure: read-then-edit as a session of its own (the peers send 3 to 4 requests).
    const alone = SHORT_CHAT.slice(-1);
    const solo = async (settings: EffectiveValues) => replay(fake, { tasks: alone, workspace: createLongSessionWorkspace(), settings });
    console.log(`\ncost: read-then-edit as a new session: ${describeRequests(await solo(before))} → ${describeRequests(await solo(after))}`);

    const all = { before: merge(totals.before), after: merge(totals.after) };
    printTable('cost: both together (targets at the new defaults: auxiliary requests ≤ 35% of action requests, auxiliary tokens ≤ 15% of action tokens)', [
      summaryRow('old defaults', all.before),
      summaryRow('new defaults', all.after),
    ]);
    console.log(`  settings: old = ${describe(before)}; new = ${describe(after)}`);
  } finally {
    await fake.stop();
  }
}

function kindRows(old: Replay, now: Replay): Array<Record<string, string>> {
  const kinds = CALL_PURPOSES.filter((k) => old.byKind[k].requests + now.byKind[k].requests > 0);
  const rows = kinds.map((kind) => row(kind, old.byKind[kind], now.byKind[kind]));
  rows.push(row('auxiliary, all kinds', auxiliary(old), auxiliary(now)));
  return rows;
}

function row(kind: string, old: KindTally, now: KindTally): Record<string, string> {
  return { kind, requests: `${old.requests} → ${now.requests}`, tokens: `${fmt(old.tokens)} → ${fmt(now.tokens)}` };
}

function summaryRow(name: string, run: Replay): Record<string, string> {
  const aux = auxiliary(run);
  const action = run.byKind.action;
  return {
    defaults: name,
    'action requests': String(action.requests),
    'auxiliary requests': String(aux.requests),
    'aux/action requests': pct(aux.requests / action.requests),
    'action tokens': fmt(action.tokens),
    'auxiliary tokens': fmt(aux.tokens),
    'aux/action tokens': pct(aux.tokens / action.tokens),
  };
}

function ratios(label: string, run: Replay): string {
  const aux = auxiliary(run);
  const counted = CALL_PURPOSES.reduce((n, k) => n + run.byKind[k].requests, 0);
  if (counted !== run.providerRequests) throw new Error(`${run.providerRequests} requests reached the provider but ${counted} were classified`);
  return `${label}: auxiliary ${pct(aux.requests / run.byKind.action.requests)} of action requests, ${pct(aux.tokens / run.byKind.action.tokens)} of action tokens`;
}

function auxiliary(run: Replay): KindTally {
  const kinds = CALL_PURPOSES.filter(isAuxiliary);
  return { requests: sum(kinds.map((k) => run.byKind[k].requests)), tokens: sum(kinds.map((k) => run.byKind[k].tokens)) };
}

function merge(runs: readonly Replay[]): Replay {
  const byKind = Object.fromEntries(
    CALL_PURPOSES.map((k) => [k, { requests: sum(runs.map((r) => r.byKind[k].requests)), tokens: sum(runs.map((r) => r.byKind[k].tokens)) }]),
  ) as Record<CallPurpose, KindTally>;
  return { byKind, providerRequests: sum(runs.map((r) => r.providerRequests)), completed: sum(runs.map((r) => r.completed)), tasks: sum(runs.map((r) => r.tasks)) };
}

/** "7 requests (3 action, 3 thinking, 1 title)". */
function describeRequests(run: Replay): string {
  const parts = CALL_PURPOSES.filter((k) => run.byKind[k].requests > 0).map((k) => `${run.byKind[k].requests} ${k}`);
  return `${run.providerRequests} requests (${parts.join(', ')})`;
}

function describe(v: EffectiveValues): string {
  return `thinking ${v.thinkingLevel} ${v.thinkingCadence}, episodic summary every ${v['memory.summaryEvery']} messages, playbook learning ${v['playbook.learn'] ? `every ${v['playbook.reflectEvery']} messages` : 'off'}, titles ${v.sessionTitles}`;
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function pct(ratio: number): string {
  return `${Math.round(ratio * 100)}%`;
}
