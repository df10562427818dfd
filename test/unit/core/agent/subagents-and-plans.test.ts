import * as assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMainAgent } from '../../../../src/core/agent/create-agent';
import type { PlanDecision, PlanForReview, UICallback } from '../../../../src/core/ui';
import { FakeProvider, toolResults, type RecordedRequest, type ScriptedTurn } from '../../../fixtures/fake-provider';

const fixtureWorkspace = join(__dirname, '../../../../../test/fixtures/workspace');

/** The system prompt of an OpenAI request: which agent is calling. */
function systemOf(req: RecordedRequest): string {
  return req.body.messages.find((m: { role: string }) => m.role === 'system')?.content ?? '';
}
function tools(req: RecordedRequest): string[] {
  return (req.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name);
}
const isExplorer = (req: RecordedRequest) => /You are Code-Explorer/.test(systemOf(req));
const isPlanner = (req: RecordedRequest) => /You are Planner/.test(systemOf(req));

const PLAN = `# Plan: add multiply
## Goal
Add a multiply function.
## Context
math.ts has add and subtract.
## Files to modify
- math.ts
## Files to create
None.
## Implementation steps
1. Add multiply(a, b) to math.ts
2. Export it next to add
## Verification
Call multiply(2, 3) and expect 6.
## Risks
None.
`;

describe('subagents and plan mode through the real factory (openai SDK)', function () {
  this.timeout(30_000);
  const fake = new FakeProvider();
  let workspace: string;
  let home: string;

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    workspace = mkdtempSync(join(tmpdir(), 'opendev-sub-'));
    home = mkdtempSync(join(tmpdir(), 'opendev-home-'));
    cpSync(fixtureWorkspace, workspace, { recursive: true });
  });

  const agent = (ui?: Partial<UICallback>) =>
    createMainAgent({
      roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'k', baseUrl: fake.openaiBaseUrl } },
      workspaceRoot: workspace,
      home,
    }).then((a) => ({ agent: a, ui: { onTextDelta() {}, onToolStart() {}, onToolEnd() {}, ...ui } as UICallback }));

  it('two subagents spawned in one response run in parallel, each with its own tool set', async () => {
    let mainCalls = 0;
    // An explorer is answered only once both have asked: run one after the other, the first would wait alone.
    let explorersAsked = 0;
    let bothAsked!: () => void;
    const both = new Promise<void>((resolve) => (bothAsked = resolve));
    let waitedAlone = false;
    fake.setResponder(async (req): Promise<ScriptedTurn> => {
      if (isExplorer(req)) {
        if (++explorersAsked === 2) bothAsked();
        let timer: NodeJS.Timeout | undefined;
        const met = await Promise.race([both.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 20_000)))]);
        clearTimeout(timer);
        waitedAlone ||= !met;
        return { text: `explored: ${req.body.messages.at(-1).content.slice(0, 20)}` };
      }
      mainCalls++;
      if (mainCalls === 1) {
        return {
          toolCalls: [
            { id: 's1', name: 'spawn_subagent', arguments: { subagent_type: 'Code-Explorer', task: 'find add' } },
            { id: 's2', name: 'spawn_subagent', arguments: { subagent_type: 'code_explorer', task: 'find subtract' } },
          ],
        };
      }
      return { text: 'Both found.' };
    });
    const { agent: main, ui } = await agent();
    const result = await main.runTurn('explore add and subtract', ui);

    assert.equal(result.text, 'Both found.');
    const explorers = fake.requests.filter(isExplorer);
    assert.equal(explorers.length, 2);
    assert.equal(waitedAlone, false, 'the second explorer asked while the first waited for its answer: they ran in parallel');
    const explorerTools = tools(explorers[0]!);
    assert.ok(explorerTools.includes('read_file'));
    for (const absent of ['write_todos', 'update_todo', 'spawn_subagent', 'present_plan']) assert.ok(!explorerTools.includes(absent), `${absent} is not in the explorer's schema`);
    // The results are followed by the "subagents returned" signal, which asks for one synthesis.
    const last = fake.requests.filter((r) => !isExplorer(r)).at(-1)!;
    const [r1, r2] = last.body.messages.filter((m: { role: string }) => m.role === 'tool');
    assert.match(r1!.content, /explored: find add/);
    assert.match(r2!.content, /explored: find subtract/);
    assert.match(JSON.stringify(last.body.messages.at(-1)), /<subagents_returned>/);
  });

  it('plan mode: read-only schema, the Planner is delegated to, and approval turns the steps into todos', async () => {
    mkdirSync(join(workspace, '.opendev/plans'), { recursive: true });
    writeFileSync(join(workspace, '.opendev/plans/multiply.md'), PLAN);
    let mainCalls = 0;
    fake.setResponder((req): ScriptedTurn => {
      if (isPlanner(req)) return { toolCalls: [{ name: 'task_complete', arguments: { summary: 'Plan written to .opendev/plans/multiply.md — 2 steps', status: 'success' } }] };
      mainCalls++;
      if (mainCalls === 1) return { toolCalls: [{ name: 'spawn_subagent', arguments: { subagent_type: 'Planner', task: 'add multiply' } }] };
      if (mainCalls === 2) return { toolCalls: [{ name: 'present_plan', arguments: { plan_file_path: '.opendev/plans/multiply.md' } }] };
      return { text: 'Plan approved; starting.' };
    });
    const reviewed: PlanForReview[] = [];
    const { agent: main, ui } = await agent({
      reviewPlan: async (plan): Promise<PlanDecision> => {
        reviewed.push(plan);
        return { action: 'approve_auto' };
      },
    });
    const result = await main.runTurn('plan adding a multiply function', ui);

    assert.equal(result.status, 'completed');
    const first = fake.requests[0]!;
    assert.match(JSON.stringify(first.body.messages), /PLAN MODE/);
    assert.ok(tools(first).includes('spawn_subagent') && tools(first).includes('present_plan'));
    assert.ok(tools(first).every((t) => !['write_todos', 'update_todo', 'complete_todo'].includes(t)), 'plan mode has no tool that changes state');
    const planner = fake.requests.find(isPlanner)!;
    assert.ok(tools(planner).includes('task_complete') && !tools(planner).includes('write_todos') && !tools(planner).includes('present_plan'));
    assert.equal(reviewed.length, 1);
    assert.match(reviewed[0]!.content, /## Implementation steps/);
    assert.deepEqual(main.todos().map((t) => t.title), ['Add multiply(a, b) to math.ts', 'Export it next to add']);
    assert.equal(main.mode, 'normal', 'approval leaves plan mode');
  });

  it('plan review "modify" hands the feedback back to the model', async () => {
    mkdirSync(join(workspace, '.opendev/plans'), { recursive: true });
    writeFileSync(join(workspace, '.opendev/plans/multiply.md'), PLAN);
    fake.enqueue({ toolCalls: [{ name: 'present_plan', arguments: { plan_file_path: '.opendev/plans/multiply.md' } }] }, { text: 'I will revise it.' });
    const { agent: main, ui } = await agent({ reviewPlan: async () => ({ action: 'modify', feedback: 'Also add divide.' }) });
    main.setMode('plan');
    await main.runTurn('show me the plan', ui);
    assert.match(toolResults(fake.requests[1]!)[0]!.content, /Also add divide\./);
    assert.equal(main.mode, 'plan');
    assert.deepEqual(main.todos(), []);
  });
});
