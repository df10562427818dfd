import * as assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../../../../src/core/agent/agent';
import type { ResolvedRoleModel } from '../../../../src/core/llm/role-resolver';
import type { ThinkingLevel } from '../../../../src/core/config/thinking-level';
import { createProvider } from '../../../../src/core/llm/create-provider';
import type { Message } from '../../../../src/core/messages';
import { ProcessManager } from '../../../../src/core/process/process-manager';
import { approvalGate } from '../../../../src/core/safety/approval-gate';
import type { ApprovalLevel } from '../../../../src/core/config/approval-level';
import { BUILTIN_SUBAGENTS } from '../../../../src/core/subagents/builtin-agents';
import { SubagentManager, type SubagentRunner } from '../../../../src/core/subagents/subagent-manager';
import { templatesDir } from '../../../../src/core/templates';
import type { TodoList } from '../../../../src/core/todo';
import { TodoStore } from '../../../../src/core/todos/todo-store';
import { createBuiltinRegistry } from '../../../../src/core/tools/builtin-tools';
import type { UICallback } from '../../../../src/core/ui';
import { FakeProvider, type RecordedRequest, type ScriptedTurn } from '../../../fixtures/fake-provider';
import { fixedTodos, type WireFormat } from '../../../helpers/test-agent';

const PLAN = `# Plan: add multiply
## Goal
Add multiply.
## Context
math.ts has add.
## Files to modify
- math.ts
## Files to create
None.
## Implementation steps
1. Add multiply(a, b) to math.ts
2. Export it next to add
## Verification
multiply(2, 3) is 6.
## Risks
None.
`;

/** Every message of a request as one string, to look for reminders (JSON escapes newlines). */
function allText(req: RecordedRequest): string {
  return JSON.stringify(req.body.messages);
}
function count(text: string, phrase: string): number {
  return text.split(phrase).length - 1;
}
function hasTools(req: RecordedRequest): boolean {
  return (req.body.tools ?? []).length > 0;
}
const read = (file_path: string, offset = 1): ScriptedTurn => ({ toolCalls: [{ name: 'read_file', arguments: { file_path, offset } }] });
const call = (name: string, args: Record<string, unknown>): ScriptedTurn => ({ toolCalls: [{ name, arguments: args }] });

for (const wire of ['openai', 'anthropic'] as WireFormat[]) {
  describe(`reminders at the executor's injection points (${wire} wire, real SDK)`, function () {
    this.timeout(30_000);
    const fake = new FakeProvider();
    let workspace: string;
    let processes: ProcessManager;
    before(() => fake.start());
    after(() => fake.stop());
    beforeEach(() => {
      fake.reset();
      workspace = mkdtempSync(join(tmpdir(), 'opendev-reminders-'));
      writeFileSync(join(workspace, 'math.ts'), 'export function add(a: number, b: number) {\n  return a + b;\n}\n');
      processes = new ProcessManager({ tasksDir: join(workspace, '.tasks') });
    });
    afterEach(async () => {
      await processes.shutdown();
      rmSync(workspace, { recursive: true, force: true });
    });

    /** A main agent with the real tools, approval gate, todo store and subagent manager (its runner faked). */
    function agent(options: { approval?: ApprovalLevel; todos?: TodoList; thinkingLevel?: ThinkingLevel; runSubagent?: SubagentRunner } = {}): Agent {
      const action: ResolvedRoleModel = {
        provider: createProvider({ provider: wire, model: 'fake-model', apiKey: 'k', baseUrl: wire === 'openai' ? fake.openaiBaseUrl : fake.anthropicBaseUrl }),
        model: 'fake-model',
      };
      const registry = createBuiltinRegistry();
      const runSubagent: SubagentRunner = options.runSubagent ?? (async (spec, task) => ({ status: 'completed', summary: `${spec.name} looked at: ${task}`, history: [] }));
      return new Agent({
        identity: { name: 'main', isSubagent: false },
        workspaceRoot: workspace,
        model: {
          roles: { forRole: () => action },
          systemPrompt: { stable: 'You are a test agent.', dynamic: '' },
          promptVars: { WORKSPACE_ROOT: workspace },
          maxIterations: 20,
          thinkingLevel: options.thinkingLevel ?? 'off',
        },
        tools: {
          registry,
          todos: options.todos ?? new TodoStore(),
          subagents: new SubagentManager({ specs: BUILTIN_SUBAGENTS, run: runSubagent, ui: ui() }),
          lifecycle: approvalGate(registry, () => options.approval ?? 'auto'),
          processes,
        },
      });
    }
    function ui(extra: Partial<UICallback> = {}): UICallback {
      return { onTextDelta() {}, onToolStart() {}, onToolEnd() {}, ...extra };
    }

    describe('error recovery', () => {
      it('a typed reminder before the next call, at most 3 per error run; a success starts a new run', async () => {
        const missing = (n: number) => read(`src/missing-${n}.ts`);
        fake.enqueue(missing(1), missing(2), missing(3), missing(4), read('math.ts'), missing(5), { text: 'I give up.' }, { text: 'It does not exist.' });
        const result = await agent().runTurn('read the sources', ui());
        assert.equal(result.text, 'It does not exist.');
        const typed = fake.requests.map((r) => count(allText(r), 'failed: not found.'));
        assert.deepEqual(typed, [0, 1, 2, 3, 3, 3, 4, 4], 'three reminders, none for the 4th failure; after the success a new run');
        assert.match(allText(fake.requests[1]!), /read_file src\/missing-1\.ts failed: not found\..*list_files or search/);
        // The model answered after a failure: the generic "do not give up" nudge, still within the run's budget.
        assert.match(allText(fake.requests[7]!), /Your last tool call failed \(read_file src\/missing-5\.ts\)/);
      });

      it('an exhausted budget lets the model give up without a nudge', async () => {
        fake.enqueue(read('a.ts'), read('b.ts'), read('c.ts'), { text: 'None of them exist.' });
        const result = await agent().runTurn('read a, b and c', ui());
        assert.equal(result.text, 'None of them exist.');
        assert.equal(fake.requests.length, 4);
        assert.doesNotMatch(allText(fake.requests[3]!), /Your last tool call failed/);
      });

      it('an edit_file mismatch is told to re-read the file and copy old_content exactly', async () => {
        fake.enqueue(read('math.ts'), call('edit_file', { file_path: 'math.ts', old_content: 'return a - b;', new_content: 'return a * b;' }), { text: 'Let me re-read.' }, { text: 'done' });
        await agent().runTurn('change add', ui());
        assert.match(allText(fake.requests[2]!), /edit_file math\.ts did not apply: old_content does not match the file\..*old_content was not found in math\.ts.*Read the file again with read_file/);
      });
    });

    describe('behaviour correction', () => {
      it('a call the user rejected: not retried, no error-recovery reminder', async () => {
        fake.enqueue(call('write_file', { file_path: 'notes.md', content: 'x' }), { text: 'OK, I will not write it.' });
        const result = await agent({ approval: 'semi-auto' }).runTurn('take notes', ui({ requestApproval: async () => ({ action: 'deny', feedback: 'no files please' }) }));
        assert.equal(result.text, 'OK, I will not write it.');
        const second = allText(fake.requests[1]!);
        assert.match(second, /The user rejected write_file notes\.md\. Do not retry the same call\./);
        assert.doesNotMatch(second, /permission denied|Your last tool call failed/);
        assert.equal(fake.requests.length, 2, 'answering after a rejection is not a failure to nudge');
      });

      it('five rounds of read-only calls in a row get the exploration nudge; a command resets the count', async () => {
        fake.enqueue(...[1, 2, 3, 4].map((n) => read('math.ts', n)), call('run_command', { command: 'echo hi' }), ...[1, 2, 3, 4].map((n) => read('math.ts', n)), read('math.ts', 5), { text: 'done' });
        await agent().runTurn('look around', ui());
        const nudged = fake.requests.map((r) => /rounds of read-only tool calls in a row/.test(allText(r)));
        assert.deepEqual(nudged.indexOf(true), 10, 'only after reads 6–10, not after reads 1–4');
        assert.match(allText(fake.requests[10]!), /You have made 5 rounds of read-only tool calls/);
      });

      it('no exploration nudge in plan mode, where reading is all the agent can do', async () => {
        fake.enqueue(...[1, 2, 3, 4, 5].map((n) => read('math.ts', n)), { text: 'explored' });
        const a = agent();
        a.setMode('plan');
        await a.runTurn('look around', ui());
        assert.ok(fake.requests.every((r) => !/rounds of read-only tool calls/.test(allText(r))));
      });

      it('an empty answer is asked once for a summary (completion_nudge_sent)', async () => {
        fake.enqueue({ text: '' }, { text: '' });
        const result = await agent().runTurn('go', ui());
        assert.equal(result.status, 'completed');
        assert.equal(fake.requests.length, 2, 'asked once, then the empty answer stands');
        assert.match(allText(fake.requests[1]!), /Your last reply was empty\. Write a short summary/);
      });

      it('task_complete with an empty-ish summary is deferred once', async () => {
        const finish = (summary: string) => call('task_complete', { summary, status: 'success' });
        fake.enqueue(finish('.'), finish('…'));
        const result = await agent().runTurn('go', ui());
        assert.equal(result.text, '…');
        assert.equal(fake.requests.length, 2);
        assert.match(allText(fake.requests[1]!), /Your last reply was empty/);
      });
    });

    describe('task lifecycle and todos', () => {
      it('an approved plan is signalled once, with its path and the first todo', async () => {
        mkdirSync(join(workspace, '.opendev/plans'), { recursive: true });
        writeFileSync(join(workspace, '.opendev/plans/multiply.md'), PLAN);
        const present = call('present_plan', { plan_file_path: '.opendev/plans/multiply.md' });
        fake.enqueue(present, present, { text: 'Starting.' }, { text: 'Really starting.' }, { text: 'Stopping anyway.' });
        await agent().runTurn('plan it', ui({ reviewPlan: async () => ({ action: 'approve' }) }));
        const second = allText(fake.requests[1]!);
        assert.match(second, /<plan_approved>\\nThe plan \.opendev\/plans\/multiply\.md is approved and its 2 todos are ready\. Start now with:\\n1\. Add multiply\(a, b\) to math\.ts/);
        assert.equal(count(allText(fake.requests.at(-1)!), '<plan_approved>'), 1, 'the second approval is not signalled again');
      });

      it('closing the last todo signals "all todos are done" once (all_todos_complete_nudged)', async () => {
        const write = call('write_todos', { todos: [{ title: 'One' }, { title: 'Two' }] });
        fake.enqueue(write, call('complete_todo', { id: '1' }), call('complete_todo', { id: '2' }), write, call('complete_todo', { id: '1' }), call('complete_todo', { id: '2' }), { text: 'All done.' });
        await agent().runTurn('do two things', ui());
        const signalled = fake.requests.map((r) => count(allText(r), 'All todos are done. Verify the result'));
        assert.deepEqual(signalled, [0, 0, 0, 1, 1, 1, 1]);
      });

      it('a returned subagent prompts a synthesis of its result', async () => {
        fake.enqueue(call('spawn_subagent', { subagent_type: 'Code-Explorer', task: 'find add' }), { text: 'add is in math.ts' });
        await agent().runTurn('where is add?', ui());
        assert.match(allText(fake.requests[1]!), /<subagents_returned>\\n- ✓ Code-Explorer explorer-[0-9a-f]+: Code-Explorer looked at: find add\\n<\/subagents_returned>\\nEvaluate these results together/);
      });

      it('a background subagent that finishes is announced at the next iteration, once', async () => {
        let release!: () => void;
        const finished = new Promise<void>((r) => (release = r));
        const runSubagent: SubagentRunner = async () => {
          await finished;
          return { status: 'completed', summary: 'found add in math.ts', history: [] };
        };
        fake.setResponder((req) => {
          const n = fake.requests.indexOf(req);
          if (n === 0) return call('spawn_subagent', { subagent_type: 'Code-Explorer', task: 'find add', background: true });
          if (n === 1) {
            release();
            return call('list_files', {});
          }
          if (n === 2) return call('list_files', {});
          return { text: 'done' };
        });
        await agent({ runSubagent }).runTurn('explore in the background', ui());
        const announced = fake.requests.map((r) => count(allText(r), 'Background subagents have finished:'));
        assert.deepEqual(announced, [0, 0, 1, 1]);
        assert.match(allText(fake.requests[2]!), /- explorer-[0-9a-f]+ \(Code-Explorer\): completed: found add in math\.ts\\nCollect each full result with get_subagent_output/);
      });

      it('a background result collected with get_subagent_output is not announced', async () => {
        let release!: () => void;
        const finished = new Promise<void>((r) => (release = r));
        const runSubagent: SubagentRunner = async () => {
          await finished;
          return { status: 'completed', summary: 'found add', history: [] };
        };
        fake.setResponder((req) => {
          const n = fake.requests.indexOf(req);
          if (n === 0) return call('spawn_subagent', { subagent_type: 'Code-Explorer', task: 'find add', background: true });
          if (n === 1) {
            // It finishes while get_subagent_output waits for it.
            setTimeout(release, 200);
            const id = /explorer-[0-9a-f]+/.exec(allText(req))![0];
            return call('get_subagent_output', { agent_id: id, wait: true });
          }
          return { text: 'done' };
        });
        await agent({ runSubagent }).runTurn('explore', ui());
        assert.ok(fake.requests.every((r) => !/Background subagents have finished/.test(allText(r))));
        assert.match(allText(fake.requests.at(-1)!), /found add/);
      });

      it('a resumed conversation with an approved plan references the plan file at the next turn, once', async () => {
        const history: Message[] = [
          { role: 'user', content: 'plan multiply' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'p1', name: 'present_plan', arguments: '{"plan_file_path":".opendev/plans/multiply.md"}' }] },
          { role: 'tool', toolCallId: 'p1', name: 'present_plan', content: 'The user approved the plan…', isError: false, summary: '✓ Plan approved: 2 todos from .opendev/plans/multiply.md' },
          { role: 'assistant', content: 'Working on it.', toolCalls: [] },
        ];
        const a = agent();
        a.restore(history);
        fake.enqueue({ text: 'Continuing.' }, { text: 'Still here.' });
        await a.runTurn('go on', ui());
        await a.runTurn('and now?', ui());
        assert.match(allText(fake.requests[0]!), /resumed from an earlier session in which the user approved the plan\\n\.opendev\/plans\/multiply\.md/);
        assert.equal(count(allText(fake.requests[1]!), 'resumed from an earlier session'), 1, 'not repeated at the second turn');
        const other = agent();
        other.restore(history.slice(0, 2).concat({ ...history[2]!, summary: '✎ Plan needs changes: more tests' } as Message, history[3]!));
        fake.enqueue({ text: 'ok' });
        await other.runTurn('go on', ui());
        assert.doesNotMatch(allText(fake.requests[2]!), /resumed from an earlier session/, 'a plan sent back for changes is no approved plan');
      });
    });

    describe('phase control', () => {
      it('leaving plan mode is said once, at the next turn', async () => {
        const a = agent();
        a.setMode('plan');
        a.setMode('normal');
        fake.enqueue({ text: 'ok' }, { text: 'ok again' });
        await a.runTurn('now implement it', ui());
        await a.runTurn('and more', ui());
        assert.match(allText(fake.requests[0]!), /now implement it\\n\\nPlan mode is over/);
        assert.equal(count(allText(fake.requests[1]!), 'Plan mode is over'), 1);
      });

      it('the thinking call reasons about the open todos', async () => {
        fake.enqueue({ text: 'next: write the tests' }, { text: 'done' }, { text: 'trace' }, { text: 'done' }, { text: 'trace' }, { text: 'done' });
        const todos = fixedTodos([{ id: '1', title: 'Write tests', description: '', status: 'doing' }, { id: '2', title: 'Docs', description: '', status: 'done' }]);
        await agent({ thinkingLevel: 'low', todos }).runTurn('continue', ui());
        assert.equal(hasTools(fake.requests[0]!), false, 'the first call is the thinking call');
        assert.match(allText(fake.requests[0]!), /Todos \(1 of 2 done\):\\n- \[doing\] 1\. Write tests\\n- \[done\] 2\. Docs\\nReason about the next open todo/);
        assert.doesNotMatch(allText(fake.requests[1]!), /Reason about the next open todo/, 'the note is for the thinking call only');
      });

      it('one iteration injects in the paper order: subagent signal, follow-up, then the thinking trace', async () => {
        let a!: Agent;
        const runSubagent: SubagentRunner = async (spec, task) => {
          a.inject('also check subtract');
          return { status: 'completed', summary: `${spec.name} looked at: ${task}`, history: [] };
        };
        a = agent({ thinkingLevel: 'low', runSubagent });
        fake.enqueue({ text: 'spawn an explorer' }, call('spawn_subagent', { subagent_type: 'Code-Explorer', task: 'find add' }), { text: 'synthesise now' }, { text: 'add is in math.ts' });
        await a.runTurn('where is add?', ui());
        const action = allText(fake.requests[3]!);
        const order = ['<subagents_returned>', 'also check subtract', 'synthesise now'].map((p) => action.indexOf(p));
        assert.ok(order.every((i) => i >= 0), `all three are in the action call: ${order}`);
        assert.deepEqual([...order].sort((x, y) => x - y), order, 'step 4, then step 5, then the trace of step 3 with the action call');
        assert.ok(hasTools(fake.requests[3]!));
      });
    });
  });
}

describe('reminders missing from the templates are skipped', function () {
  this.timeout(30_000);
  const fake = new FakeProvider();
  const saved = process.env.OPENDEV_TEMPLATES_DIR;
  const shipped = templatesDir();
  const copies: string[] = [];
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => fake.reset());
  afterEach(() => {
    if (saved === undefined) delete process.env.OPENDEV_TEMPLATES_DIR;
    else process.env.OPENDEV_TEMPLATES_DIR = saved;
    for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** Points the templates at a fresh copy (templates are cached by path) whose reminders.md lacks these sections. */
  function without(...names: string[]): void {
    const copy = mkdtempSync(join(tmpdir(), 'opendev-templates-'));
    copies.push(copy);
    cpSync(shipped, copy, { recursive: true });
    const file = join(copy, 'reminders.md');
    let text = readFileSync(file, 'utf8');
    for (const name of names) {
      const cut = text.replace(new RegExp(`--- ${name} ---\\n[\\s\\S]*?(?=\\n--- |$)`), '');
      assert.notEqual(cut, text, `${name} was in the template`);
      text = cut;
    }
    writeFileSync(file, text);
    process.env.OPENDEV_TEMPLATES_DIR = copy;
  }

  function agent(): Agent {
    const action: ResolvedRoleModel = { provider: createProvider({ provider: 'openai', model: 'fake-model', apiKey: 'k', baseUrl: fake.openaiBaseUrl }), model: 'fake-model' };
    return new Agent({
      identity: { name: 'main', isSubagent: false },
      workspaceRoot: tmpdir(),
      model: {
        roles: { forRole: () => action },
        systemPrompt: { stable: 'test', dynamic: '' },
        promptVars: {},
        maxIterations: 10,
        thinkingLevel: 'off',
      },
      tools: {
        registry: createBuiltinRegistry(),
        todos: new TodoStore(),
      },
    });
  }
  const silent: UICallback = { onTextDelta() {}, onToolStart() {}, onToolEnd() {} };

  it('without empty_completion an empty answer ends the turn at once', async () => {
    without('empty_completion');
    fake.enqueue({ text: '' });
    const result = await agent().runTurn('go', silent);
    assert.equal(result.status, 'completed');
    assert.equal(fake.requests.length, 1);
  });

  it('without a typed recovery reminder the generic one stands in; without both, nothing is injected', async () => {
    without('error_not_found');
    fake.enqueue({ toolCalls: [{ name: 'read_file', arguments: { file_path: 'nope.ts' } }] }, { text: 'gone' }, { text: 'really gone' });
    await agent().runTurn('read it', silent);
    assert.match(allText(fake.requests[1]!), /Your last tool call failed \(read_file nope\.ts\)/);

    fake.reset();
    without('error_not_found', 'failed_tool_nudge');
    fake.enqueue({ toolCalls: [{ name: 'read_file', arguments: { file_path: 'nope.ts' } }] }, { text: 'gone' });
    const result = await agent().runTurn('read it', silent);
    assert.equal(result.text, 'gone');
    assert.equal(fake.requests.length, 2);
    assert.doesNotMatch(allText(fake.requests[1]!), /Your last tool call failed|failed: not found/);
  });
});
