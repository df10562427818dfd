import * as assert from 'node:assert/strict';
import { z } from 'zod';
import type { ApprovalDecision, ApprovalRequest, UICallback } from '../../../../src/core/ui';
import type { Tool } from '../../../../src/core/tools/tool';
import { allToolResults, FakeProvider, lastUserText, toolResults, type RecordedRequest } from '../../../fixtures/fake-provider';
import { fixedTodos, slowTool, testAgent, type WireFormat } from '../../../helpers/test-agent';

/** Tools in a request body, whatever the wire format. */
function toolNames(req: RecordedRequest): string[] {
  return (req.body.tools ?? []).map((t: { name?: string; function?: { name: string } }) => t.name ?? t.function?.name);
}

/** Every message text of a request, flattened, to search for injected reminders. */
function allText(req: RecordedRequest): string {
  return JSON.stringify(req.body.messages);
}

function recorder(extra: Partial<UICallback> = {}) {
  const log = { text: '', notices: [] as string[], traces: [] as Array<{ phase: string; trace: string }>, approvals: [] as ApprovalRequest[] };
  const ui: UICallback = {
    onTextDelta: (d) => (log.text += d),
    onToolStart() {},
    onToolEnd() {},
    onNotice: (t) => log.notices.push(t),
    onThinkingTrace: (trace, phase) => log.traces.push({ trace, phase }),
    ...extra,
  };
  return { ui, log };
}

/**
 * A read-only tool whose calls wait for one another: a call ends once `count` calls have started,
 * saying so, or after one generous limit, saying it waited alone (calls run one after another).
 */
function meetingTool(count: number, limitMs = 20_000): Tool {
  const schema = z.object({ n: z.number().int() });
  let started = 0;
  let allThere!: () => void;
  const all = new Promise<void>((resolve) => (allThere = resolve));
  const tool: Tool<typeof schema> = {
    name: 'meet',
    category: 'meta',
    readOnly: true,
    schema,
    async run(args) {
      if (++started === count) allThere();
      let timer: NodeJS.Timeout | undefined;
      const met = await Promise.race([all.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), limitMs)))]);
      clearTimeout(timer);
      return { ok: true, output: met ? `call ${args.n} met the others` : `call ${args.n} waited alone`, summary: '✓ met' };
    },
  };
  return tool;
}

const taskComplete: Tool = (() => {
  const schema = z.object({ summary: z.string(), status: z.enum(['success', 'failure']) });
  const tool: Tool<typeof schema> = {
    name: 'task_complete',
    category: 'meta',
    readOnly: true,
    schema,
    async run(args, ctx) {
      ctx.completion.result = { summary: args.summary, status: args.status };
      return { ok: true, output: 'done', summary: '✓ done' };
    },
  };
  return tool;
})();

for (const wire of ['openai', 'anthropic'] as WireFormat[]) {
  describe(`ReactExecutor (${wire} wire format, real SDK)`, function () {
    this.timeout(30_000);
    const fake = new FakeProvider();
    before(() => fake.start());
    after(() => fake.stop());
    beforeEach(() => fake.reset());

    it('runs independent read-only tools concurrently and returns results in call order', async () => {
      // Each call ends only once all three have started: run one after another, the first would wait alone.
      const agent = testAgent({ wire, fake, tools: [meetingTool(3)] });
      fake.enqueue({ toolCalls: [0, 1, 2].map((n) => ({ id: `c${n}`, name: 'meet', arguments: { n } })) }, { text: 'all met' });
      const result = await agent.runTurn('meet three times', recorder().ui);
      assert.equal(result.status, 'completed');
      assert.deepEqual(toolResults(fake.requests[1]!).map((r) => r.content), ['call 0 met the others', 'call 1 met the others', 'call 2 met the others']);
    });

    it('a server that reuses tool-call ids (call_0 in every response) loses no result: the agent gives repeats ids of its own', async () => {
      const spans: Array<{ start: number; end: number }> = [];
      const agent = testAgent({ wire, fake, tools: [slowTool('wait', spans)] });
      fake.enqueue(
        { toolCalls: [{ id: 'call_0', name: 'wait', arguments: { ms: 1 } }] },
        { toolCalls: [{ id: 'call_0', name: 'wait', arguments: { ms: 2 } }, { id: 'call_0', name: 'wait', arguments: { ms: 3 } }] },
        { text: 'all waited' },
      );
      const log = recorder();
      const result = await agent.runTurn('wait three times', log.ui);
      assert.equal(result.status, 'completed');
      const results = allToolResults(fake.requests[2]!);
      assert.deepEqual(results.map((r) => r.content), ['waited 1 ms', 'waited 2 ms', 'waited 3 ms'], 'every call has its own result');
      assert.equal(new Set(results.map((r) => r.toolCallId)).size, 3);
      assert.equal(results[0]!.toolCallId, 'call_0', 'a first id is kept as the provider sent it');
      assert.ok(!log.log.notices.some((n) => /repair/i.test(n)), log.log.notices.join('\n'));
    });

    it('runs tools that write one at a time', async () => {
      const spans: Array<{ start: number; end: number }> = [];
      const agent = testAgent({ wire, fake, tools: [slowTool('write', spans, false)] });
      fake.enqueue({ toolCalls: [0, 1].map((i) => ({ id: `w${i}`, name: 'write', arguments: { ms: 150 } })) }, { text: 'ok' });
      await agent.runTurn('write twice', recorder().ui);
      assert.ok(spans[1]!.start >= spans[0]!.end, 'the second write started after the first ended');
    });

    it('thinking: a first call with NO tool schemas, then the action call with tools and the trace', async () => {
      const agent = testAgent({ wire, fake, tools: [slowTool('wait', [])], thinkingLevel: 'medium' });
      fake.enqueue({ text: 'I should just answer.' }, { text: 'Hello!' });
      const { ui, log } = recorder();
      const result = await agent.runTurn('hi', ui);
      assert.equal(result.text, 'Hello!');
      assert.equal(fake.requests.length, 2, 'no critique below HIGH');
      assert.deepEqual(toolNames(fake.requests[0]!), []);
      assert.deepEqual(toolNames(fake.requests[1]!), ['wait']);
      assert.match(allText(fake.requests[1]!), /I should just answer\./);
      assert.deepEqual(log.traces.map((t) => t.phase), ['thinking']);
      assert.equal(log.text, 'Hello!', 'only the action call streams into the answer');
    });

    it('HIGH thinking adds a critique and a refinement before acting', async () => {
      const agent = testAgent({ wire, fake, tools: [], thinkingLevel: 'high' });
      fake.enqueue({ text: 'trace v1' }, { text: 'critique: check the file first' }, { text: 'trace v2' }, { text: 'answer' });
      const { ui, log } = recorder();
      await agent.runTurn('do it', ui);
      assert.equal(fake.requests.length, 4);
      assert.match(allText(fake.requests[2]!), /trace v1.*critique: check the file first/s);
      assert.match(allText(fake.requests[3]!), /trace v2/);
      assert.doesNotMatch(allText(fake.requests[3]!), /trace v1/);
      assert.deepEqual(log.traces.map((t) => t.phase), ['thinking', 'critique', 'refined']);
    });

    it('doom loop: the 3rd identical call is skipped with a [SYSTEM WARNING]; the 4th pauses for approval', async () => {
      const agent = testAgent({ wire, fake, tools: [slowTool('wait', [])] });
      const same = { toolCalls: [{ name: 'wait', arguments: { ms: 1 } }] };
      fake.enqueue(same, same, same, same, { text: 'giving up' });
      const asked: ApprovalRequest[] = [];
      const { ui, log } = recorder({
        requestApproval: async (req): Promise<ApprovalDecision> => {
          asked.push(req);
          return { action: 'deny' };
        },
      });
      const result = await agent.runTurn('loop', ui);
      assert.equal(result.status, 'completed');
      assert.match(allText(fake.requests[3]!), /\[SYSTEM WARNING\] You have called wait with the same arguments 3 times/);
      assert.match(allText(fake.requests[3]!), /Not run: this exact call repeats an earlier one/);
      assert.equal(asked.length, 1);
      assert.equal(asked[0]!.kind, 'doom_loop');
      assert.match(asked[0]!.title, /repeating the same action/);
      assert.match(allText(fake.requests[4]!), /The user stopped the repeated wait calls/);
      assert.ok(log.notices.some((n) => /repeated wait/.test(n)));
    });

    it('doom loop: "allow" runs the repeated call once and re-arms the detector', async () => {
      const spans: Array<{ start: number; end: number }> = [];
      const agent = testAgent({ wire, fake, tools: [slowTool('wait', spans)] });
      const same = { toolCalls: [{ name: 'wait', arguments: { ms: 1 } }] };
      fake.enqueue(same, same, same, same, { text: 'done' });
      const { ui } = recorder({ requestApproval: async () => ({ action: 'allow' }) });
      await agent.runTurn('loop', ui);
      assert.equal(spans.length, 3, 'calls 1, 2 and the allowed 4th ran; the warned 3rd did not');
    });

    it('a follow-up injected during a tool joins at the next iteration boundary', async () => {
      const agent = testAgent({ wire, fake, tools: [slowTool('wait', [])] });
      fake.enqueue({ toolCalls: [{ name: 'wait', arguments: { ms: 400 } }] }, { text: 'answer with the follow-up' });
      const running = agent.runTurn('start', recorder().ui);
      await fake.waitForRequests(1);
      assert.equal(agent.inject('also check the tests'), true);
      const result = await running;
      assert.equal(result.text, 'answer with the follow-up');
      assert.match(lastUserText(fake.requests[1]!), /also check the tests/);
      assert.equal(agent.inject('too late'), false, 'nothing to inject into once the turn is over');
    });

    it('a follow-up that arrives while the final answer streams defers completion', async () => {
      const agent = testAgent({ wire, fake, tools: [] });
      fake.enqueue({ text: 'first answer, slowly', chunkDelayMs: 200 }, { text: 'second answer' });
      const running = agent.runTurn('start', recorder().ui);
      await fake.waitForRequests(1);
      agent.inject('one more thing');
      const result = await running;
      assert.equal(result.text, 'second answer');
      assert.equal(fake.requests.length, 2);
      assert.match(lastUserText(fake.requests[1]!), /one more thing/);
    });

    it('open todos defer completion (at most two nudges)', async () => {
      const agent = testAgent({ wire, fake, tools: [taskComplete], todos: fixedTodos([{ id: '1', title: 'Write tests', description: '', status: 'doing' }]) });
      const finish = (n: number) => ({ toolCalls: [{ name: 'task_complete', arguments: { summary: `done ${n}`, status: 'success' } }] });
      fake.enqueue(finish(1), finish(2), finish(3));
      const result = await agent.runTurn('go', recorder().ui);
      assert.equal(result.status, 'completed');
      assert.equal(fake.requests.length, 3, 'two nudges, then completion is accepted');
      assert.match(allText(fake.requests[1]!), /these todos are still open:.*Write tests/s);
    });

    it('task_complete ends the turn with its summary and verdict', async () => {
      const agent = testAgent({ wire, fake, tools: [taskComplete] });
      fake.enqueue({ toolCalls: [{ name: 'task_complete', arguments: { summary: 'Could not find the file.', status: 'failure' } }] });
      const result = await agent.runTurn('go', recorder().ui);
      assert.equal(result.status, 'completed');
      assert.equal(result.status === 'completed' && result.taskStatus, 'failure');
      assert.equal(result.text, 'Could not find the file.');
      assert.equal(fake.requests.length, 1);
    });

    it('after a failed tool, a text answer gets a nudge to fix it (budget 3)', async () => {
      const agent = testAgent({ wire, fake, tools: [] });
      fake.enqueue({ toolCalls: [{ name: 'nope', arguments: {} }] }, { text: 'oh well' }, { text: 'I cannot do it.' });
      const result = await agent.runTurn('go', recorder().ui);
      assert.equal(result.text, 'I cannot do it.');
      assert.match(allText(fake.requests[2]!), /Your last tool call failed/);
    });

    it('the iteration cap forces a summary without tools', async () => {
      const agent = testAgent({ wire, fake, tools: [slowTool('wait', [])], maxIterations: 2 });
      fake.enqueue({ toolCalls: [{ name: 'wait', arguments: { ms: 1 } }] }, { toolCalls: [{ name: 'wait', arguments: { ms: 2 } }] }, { text: 'Summary: waited twice.' });
      const result = await agent.runTurn('go', recorder().ui);
      assert.equal(result.status, 'iteration_limit');
      assert.equal(result.text, 'Summary: waited twice.');
      assert.deepEqual(toolNames(fake.requests[2]!), []);
      assert.match(allText(fake.requests[2]!), /reached the step limit/);
    });

    it('interrupt mid-tool stops the turn and keeps the history valid for the next turn', async () => {
      const spans: Array<{ start: number; end: number }> = [];
      let toolStarted!: () => void;
      const started = new Promise<void>((resolve) => (toolStarted = resolve));
      const agent = testAgent({ wire, fake, tools: [slowTool('wait', spans, true, toolStarted)] });
      fake.enqueue({ toolCalls: [{ name: 'wait', arguments: { ms: 10_000 } }] });
      const running = agent.runTurn('wait long', recorder().ui);
      await started;
      assert.equal(agent.interrupt(), 'interrupted');
      const result = await running;
      assert.equal(result.status, 'stopped');
      assert.ok(spans[0]!.end - spans[0]!.start < 5_000, 'the tool saw the interrupt: it did not wait its 10 s');
      fake.enqueue({ text: 'fresh start' });
      const next = await agent.runTurn('again', recorder().ui);
      assert.equal(next.text, 'fresh start');
      // The interrupted call kept a result, so the provider accepted the history.
      assert.match(allText(fake.requests[1]!), /interrupted/);
    });

    it('a 429 with retry-after is retried visibly, and only the successful attempt reaches the answer', async () => {
      const agent = testAgent({ wire, fake, tools: [] });
      fake.enqueue({ failure: { kind: 'status', status: 429, retryAfterSeconds: 1 } }, { text: 'after the wait' });
      const retries: Array<{ attempt: number; delayMs: number; reason: string }> = [];
      const { ui, log } = recorder({ onRetry: (r) => retries.push(r) });
      const result = await agent.runTurn('hi', ui);
      assert.equal(result.text, 'after the wait');
      assert.equal(log.text, 'after the wait');
      assert.equal(retries.length, 1);
      assert.equal(retries[0]!.delayMs, 1000);
      assert.match(retries[0]!.reason, /429/);
      assert.ok(fake.requests[1]!.at - fake.requests[0]!.at >= 950);
    });

    it('a stream cut mid-answer is retried and the partial text is discarded', async () => {
      const agent = testAgent({ wire, fake, tools: [] });
      fake.enqueue({ text: 'partial partial partial', failure: { kind: 'cut', afterChunks: 3 } }, { text: 'complete answer' });
      const retries: unknown[] = [];
      const result = await agent.runTurn('hi', recorder({ onRetry: (r) => retries.push(r) }).ui);
      assert.equal(result.text, 'complete answer');
      assert.equal(retries.length, 1);
      assert.deepEqual(agent.messages.filter((m) => m.role === 'assistant').map((m) => m.content), ['complete answer']);
    });

    it('an interrupt while an approval is open cancels the approval first, then stops', async () => {
      const agent = testAgent({ wire, fake, tools: [slowTool('wait', [])] });
      const same = { toolCalls: [{ name: 'wait', arguments: { ms: 1 } }] };
      fake.enqueue(same, same, same, same, { text: 'never' });
      let opened!: () => void;
      const approvalOpen = new Promise<void>((r) => (opened = r));
      const { ui } = recorder({
        requestApproval: (_req, signal) =>
          new Promise<ApprovalDecision>((resolve) => {
            opened();
            signal.addEventListener('abort', () => resolve({ action: 'deny', feedback: 'withdrawn' }));
          }),
      });
      const running = agent.runTurn('loop', ui);
      await approvalOpen;
      assert.equal(agent.interrupt(), 'modal_cancelled');
      assert.equal(agent.interrupt(), 'interrupted');
      const result = await running;
      assert.equal(result.status, 'stopped');
      assert.equal(fake.requests.length, 4);
    });
  });
}
