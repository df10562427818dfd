// Sessions, measured: loading a 5,000-message session (read, validate, repair; p50/p95 over several
// runs) and listing a project of 1,000 sessions through sessions-index.json vs. by reading every
// metadata file. The sessions are written the way OpenDev writes them (the store for the long one;
// metadata files plus one index rebuild for the thousand, which is what a listing then finds).
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Message } from '../../src/core/messages';
import { newSessionId, SessionStore, type SessionMeta } from '../../src/core/session/session-store';
import { percentile, printTable } from '../stats';

const LONG_SESSION = 5_000;
const LOAD_RUNS = 20;
const SESSIONS = 1_000;
const LIST_RUNS = 20;

export async function benchSessions(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'opendev-bench-sessions-'));
  const project = mkdtempSync(join(tmpdir(), 'opendev-bench-project-'));
  const store = new SessionStore({ home });

  // One long session, saved as a real one is: a full save every few messages.
  const record = await store.create(project);
  const conversation: Message[] = [];
  for (let i = 0; conversation.length < LONG_SESSION; i++) {
    conversation.push(...exchange(i));
    if (i % 4 === 0) await store.syncTranscript(record, conversation);
  }
  conversation.length = LONG_SESSION;
  await store.sync(record, conversation);
  const bytes = statSync(join(store.projectDir(project), `${record.meta.id}.jsonl`)).size;
  const loads = await timed(LOAD_RUNS, async () => {
    const loaded = await store.load(record.meta.id, project);
    if (loaded?.messages.length !== LONG_SESSION) throw new Error(`loaded ${loaded?.messages.length} messages`);
  });
  printTable(`sessions: load a ${fmt(LONG_SESSION)}-message session (${(bytes / 1024 / 1024).toFixed(1)} MB transcript, ${LOAD_RUNS} runs)`, [
    { p50: ms(percentile(loads, 50)), p95: ms(percentile(loads, 95)), min: ms(Math.min(...loads)) },
  ]);

  // A project with a thousand sessions.
  const many = mkdtempSync(join(tmpdir(), 'opendev-bench-many-'));
  const dir = store.projectDir(many);
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < SESSIONS; i++) {
    const meta = sessionMeta(many, i);
    writeFileSync(join(dir, `${meta.id}.json`), `${JSON.stringify(meta, null, 2)}\n`);
  }
  if ((await store.list(many)).length !== SESSIONS) throw new Error('the index rebuild missed sessions');
  const indexed = await timed(LIST_RUNS, async () => check(await store.list(many)));
  const scanned = await timed(LIST_RUNS, async () => check(await store.listByScanning(many)));
  printTable(`sessions: list ${fmt(SESSIONS)} sessions of a project (${LIST_RUNS} runs each)`, [
    { how: 'sessions-index.json', p50: ms(percentile(indexed, 50)), p95: ms(percentile(indexed, 95)) },
    { how: 'reading every metadata file', p50: ms(percentile(scanned, 50)), p95: ms(percentile(scanned, 95)) },
  ]);
  console.log(`  the index lists ${(percentile(scanned, 50) / percentile(indexed, 50)).toFixed(1)}× faster (p50)`);
}

function check(list: readonly SessionMeta[]): void {
  if (list.length !== SESSIONS) throw new Error(`listed ${list.length} sessions`);
}

/** A user request, a tool call with its result (1–4 kB of output), and an answer. */
function exchange(i: number): Message[] {
  const id = `call_${i}`;
  return [
    { role: 'user', content: `Step ${i}: look at src/module-${i % 40}.ts and fix the failing test.` },
    { role: 'assistant', content: 'Let me read the file first.', toolCalls: [{ id, name: 'read_file', arguments: JSON.stringify({ file_path: `src/module-${i % 40}.ts` }) }] },
    {
      role: 'tool',
      toolCallId: id,
      name: 'read_file',
      content: Array.from({ length: 20 + (i % 80) }, (_, l) => `${String(l + 1).padStart(5)}\texport function helper${l}(value: number): number { return value * ${l}; }`).join('\n'),
      isError: false,
      summary: `✓ Read src/module-${i % 40}.ts (${20 + (i % 80)} lines)`,
    },
    { role: 'assistant', content: `The test expected ${i} but the helper returned ${i + 1}; fixed the off-by-one.`, toolCalls: [] },
  ];
}

function sessionMeta(workingDir: string, i: number): SessionMeta {
  const at = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
  return {
    id: newSessionId(),
    title: `Session ${i}: fix the flaky test in module ${i % 40}`,
    workingDir,
    createdAt: at,
    updatedAt: at,
    messageCount: 20 + (i % 300),
    cost: { inputTokens: 12_000 + i, cachedTokens: 3_000, outputTokens: 900, usd: 0.05, calls: 12 },
  };
}

async function timed(runs: number, run: () => Promise<void>): Promise<number[]> {
  await run(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return samples;
}

function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}
