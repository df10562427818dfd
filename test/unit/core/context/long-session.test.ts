import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeProvider, toolResults, type RecordedRequest } from '../../../fixtures/fake-provider';
import { isActionCall, promptTokensOf, runLongSession, type LongSessionRun } from '../../../fixtures/long-session/run-session';
import { LONG_SESSION_ITERATIONS } from '../../../fixtures/long-session/script';

/**
 * The 40-iteration session of test/fixtures/long-session (reads, searches, test runs, edits over a
 * generated project) through createMainAgent — every built-in tool, the composed prompt, offloading
 * and staged compaction — on the real openai SDK against the fake provider, with a window of 10,000
 * tokens: the raw session would be about six times that.
 */
describe('a 40-iteration session in a small window (integration: real agent, tools and SDK)', function () {
  this.timeout(180_000);
  const WINDOW = 10_000;
  const fake = new FakeProvider();
  const home = mkdtempSync(join(tmpdir(), 'opendev-long-'));
  let run: LongSessionRun;

  before(async () => {
    await fake.start();
    run = await runLongSession(fake, { contextWindow: WINDOW, contextManagement: true, home });
  });
  after(() => fake.stop());

  it('finishes all four tasks in the 40 scripted iterations', () => {
    assert.deepEqual(run.results.map((r) => r.status), ['completed', 'completed', 'completed', 'completed']);
    assert.equal(run.actionPromptTokens.length, LONG_SESSION_ITERATIONS);
    // The edits of the first task really landed.
    assert.match(readFileSync(join(run.workspace, 'src/orders.ts'), 'utf8'), /\(subtotalCents - discountCents\) \* \(1 \+ taxRate\)/);
  });

  it('keeps every request under the window', () => {
    const over = run.requests.map(promptTokensOf).filter((tokens) => tokens >= WINDOW);
    assert.deepEqual(over, [], `requests at or over ${WINDOW} tokens: ${run.requests.map(promptTokensOf).join(', ')}`);
  });

  it('masks, then prunes, then compacts — in that order within every check — and says what each stage freed', () => {
    const stages = run.context.filter((c) => c.stage).map((c) => c.stage!);
    const first = (stage: string) => stages.indexOf(stage);
    for (const stage of ['warn', 'mask', 'prune', 'full_compaction']) assert.ok(first(stage) >= 0, `${stage} ran: ${stages.join(' → ')}`);
    // The LLM compaction comes only after the cheap stages have been tried.
    assert.ok(first('mask') < first('full_compaction') && first('prune') < first('full_compaction'), stages.join(' → '));
    // Each check (the stages between two pressure readings) runs them cheapest first.
    const ORDER = ['warn', 'mask', 'prune', 'aggressive_mask', 'full_compaction'];
    let check: string[] = [];
    for (const event of run.context) {
      if (!event.stage) {
        const ranks = check.map((s) => ORDER.indexOf(s));
        assert.deepEqual(ranks, [...ranks].sort((a, b) => a - b), `one check ran ${check.join(' → ')}`);
        check = [];
      } else check.push(event.stage);
    }
    const compactions = run.context.filter((c) => c.stage === 'full_compaction');
    assert.ok(compactions.length <= 2, `full compactions: ${compactions.length}`);
    for (const c of run.context.filter((e) => e.stage && e.stage !== 'warn')) assert.ok((c.tokensFreed ?? 0) > 0, `${c.stage} freed tokens`);
    assert.ok(run.notices.some((n) => /compact/i.test(n)), `a notice tells the user: ${run.notices.join(' | ')}`);
    // The meter always has a reading with the window it was measured against.
    assert.ok(run.context.filter((c) => !c.stage).every((c) => c.contextWindow === WINDOW && c.pressure > 0));
  });

  it('keeps a valid structure on every request: each tool call has its result', () => {
    for (const req of run.requests) {
      const messages = req.body.messages as Array<{ role: string; tool_calls?: Array<{ id: string }>; tool_call_id?: string }>;
      const answered = new Set(messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id));
      for (const m of messages) for (const call of m.tool_calls ?? []) assert.ok(answered.has(call.id), `call ${call.id} has a result`);
    }
  });

  it('the compacted conversation carries the artifact index and the archive path, and the archive holds the early work', () => {
    const afterCompaction = run.requests.filter(isActionCall).find((req) => textOf(req).includes('[Conversation compacted]'));
    assert.ok(afterCompaction, 'a later request carries the compaction summary');
    const text = textOf(afterCompaction);
    assert.match(text, /src\/orders\.ts/, 'the artifact index names the edited file');
    assert.match(text, /npm test/, 'the artifact index lists the commands run');
    const archive = /`([^`]+compaction-[^`]+\.md)`/.exec(text)?.[1];
    assert.ok(archive && existsSync(archive), `the archive path is real: ${archive}`);
    assert.match(readFileSync(archive, 'utf8'), /Order totals are wrong when a discount and tax apply together/);
  });

  it('the agent can read the archive back with read_file', async () => {
    const compacted = run.requests.filter(isActionCall).map(textOf).find((t) => t.includes('[Conversation compacted]'))!;
    const archive = /`([^`]+compaction-[^`]+\.md)`/.exec(compacted)![1]!;
    // A new session of the same user (same OPENDEV_HOME, another project folder): archives of earlier sessions stay readable.
    const again = await runLongSession(fake, {
      contextWindow: WINDOW,
      contextManagement: true,
      home,
      tasks: [{ prompt: 'What did the first test run print?', steps: [{ name: 'read_file', arguments: { file_path: archive, max_lines: 400 } }] }],
    });
    assert.deepEqual(again.results.map((r) => r.status), ['completed']);
    const last = again.requests.filter(isActionCall).at(-1)!;
    const [result] = toolResults(last);
    assert.match(result?.content ?? '', /Order totals are wrong/, 'read_file returned the archived conversation');
  });
});

function textOf(req: RecordedRequest): string {
  return JSON.stringify(req.body.messages);
}
