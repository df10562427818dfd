import * as assert from 'node:assert/strict';
import { BUILTIN_SUBAGENTS } from '../../../../src/core/subagents/builtin-agents';
import { findSpec, type SubagentSpec } from '../../../../src/core/subagents/specs';
import {
  MAX_PARENT_SUMMARY_CHARS,
  SubagentManager,
  type SubagentRunOptions,
  type SubagentRunResult,
} from '../../../../src/core/subagents/subagent-manager';
import type { AskUserQuestion, SubagentInfo, UICallback } from '../../../../src/core/ui';
import { silentUI } from '../../../../src/core/ui';

interface RunCall {
  spec: SubagentSpec;
  task: string;
  options: SubagentRunOptions;
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function recordingUI(extra: Partial<UICallback> = {}) {
  const events: string[] = [];
  const ui: UICallback = {
    ...silentUI,
    onSubagentStart: (i: SubagentInfo) => events.push(`start ${i.type} ${i.agentId} bg=${i.background}`),
    onSubagentEnd: (i) => events.push(`end ${i.type} ${i.agentId} ${i.status}`),
    ...extra,
  };
  return { ui, events };
}

const signal = () => new AbortController().signal;

describe('SubagentManager', () => {
  it('runs a foreground subagent to its end and reports start/end to the UI', async () => {
    const calls: RunCall[] = [];
    const { ui, events } = recordingUI();
    const manager = new SubagentManager({
      specs: BUILTIN_SUBAGENTS,
      ui,
      run: async (spec, task, options) => {
        calls.push({ spec, task, options });
        return { status: 'completed', summary: 'Login is handled in src/auth.ts:40', history: ['h1'] };
      },
    });
    const outcome = await manager.spawn({ subagentType: 'code_explorer', task: 'Where is login?', background: false }, signal());
    assert.equal(outcome.status, 'completed');
    assert.equal(outcome.type, 'Code-Explorer');
    assert.match(outcome.agentId, /^explorer-[0-9a-f]{6}$/);
    assert.equal(outcome.summary, 'Login is handled in src/auth.ts:40');
    assert.equal(calls[0]!.spec.name, 'Code-Explorer');
    assert.equal(calls[0]!.options.agentId, outcome.agentId);
    assert.equal(calls[0]!.options.history, undefined);
    assert.deepEqual(events, [`start Code-Explorer ${outcome.agentId} bg=false`, `end Code-Explorer ${outcome.agentId} completed`]);
    assert.deepEqual(manager.output(outcome.agentId), outcome);
  });

  it('accepts type names in any case, snake or kebab, and passes the model override', async () => {
    let model: string | undefined;
    const manager = new SubagentManager({
      specs: BUILTIN_SUBAGENTS,
      ui: silentUI,
      run: async (_s, _t, o) => {
        model = o.model;
        return { status: 'completed', summary: 'ok', history: null };
      },
    });
    for (const type of ['PR-Reviewer', 'pr_reviewer', 'pr-reviewer', 'PRREVIEWER', 'pr reviewer']) {
      const outcome = await manager.spawn({ subagentType: type, task: 't', background: false, model: 'small-model' }, signal());
      assert.equal(outcome.type, 'PR-Reviewer', type);
    }
    assert.equal(model, 'small-model');
  });

  it('starts a background subagent at once and records its outcome when done', async () => {
    const gate = deferred<SubagentRunResult>();
    const { ui, events } = recordingUI();
    const manager = new SubagentManager({ specs: BUILTIN_SUBAGENTS, ui, run: () => gate.promise });
    const started = await manager.spawn({ subagentType: 'Security-Reviewer', task: 'audit', background: true }, signal());
    assert.equal(started.status, 'running');
    assert.match(started.agentId, /^security-[0-9a-f]{6}$/);
    assert.equal(manager.output(started.agentId)!.status, 'running');
    assert.deepEqual(events, [`start Security-Reviewer ${started.agentId} bg=true`]);

    const waiting = manager.wait(started.agentId, signal());
    gate.resolve({ status: 'completed', summary: 'No issues found.', history: [] });
    const done = await waiting;
    assert.equal(done!.status, 'completed');
    assert.equal(manager.output(started.agentId)!.summary, 'No issues found.');
    assert.equal(events.length, 2);
  });

  it('wait returns the current outcome when its signal aborts first, and undefined for unknown ids', async () => {
    const manager = new SubagentManager({ specs: BUILTIN_SUBAGENTS, ui: silentUI, run: () => new Promise(() => {}) });
    const started = await manager.spawn({ subagentType: 'Code-Explorer', task: 't', background: true }, signal());
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    assert.equal((await manager.wait(started.agentId, controller.signal))!.status, 'running');
    assert.equal(await manager.wait('explorer-000000', signal()), undefined);
  });

  it('resume continues the stored history of the same agent id', async () => {
    const calls: RunCall[] = [];
    const manager = new SubagentManager({
      specs: BUILTIN_SUBAGENTS,
      ui: silentUI,
      run: async (spec, task, options) => {
        calls.push({ spec, task, options });
        const before = (options.history as string[] | undefined) ?? [];
        return { status: 'completed', summary: `answer ${calls.length}`, history: [...before, task] };
      },
    });
    const first = await manager.spawn({ subagentType: 'Code-Explorer', task: 'Where is login?', background: false }, signal());
    const second = await manager.spawn({ subagentType: 'Code-Explorer', task: 'And logout?', background: false, resume: first.agentId }, signal());
    assert.equal(second.agentId, first.agentId);
    assert.deepEqual(calls[1]!.options.history, ['Where is login?']);
    assert.equal(calls[1]!.task, 'And logout?');
    await manager.spawn({ subagentType: 'code-explorer', task: 'Third', background: false, resume: first.agentId }, signal());
    assert.deepEqual(calls[2]!.options.history, ['Where is login?', 'And logout?']);

    await assert.rejects(
      manager.spawn({ subagentType: 'Code-Explorer', task: 'x', background: false, resume: 'explorer-ffffff' }, signal()),
      /No subagent "explorer-ffffff" to resume\. Known agents: explorer-/,
    );
    await assert.rejects(
      manager.spawn({ subagentType: 'Planner', task: 'x', background: false, resume: first.agentId }, signal()),
      /is a Code-Explorer subagent, not Planner/,
    );
  });

  it('runs several spawns of one response concurrently (their runs overlap)', async () => {
    // A run ends once all three are running (or after one generous limit): serialized runs never overlap.
    let active = 0;
    let maxActive = 0;
    let allRunning!: () => void;
    const all = new Promise<void>((resolve) => (allRunning = resolve));
    const manager = new SubagentManager({
      specs: BUILTIN_SUBAGENTS,
      ui: silentUI,
      run: async (_spec, task) => {
        active++;
        maxActive = Math.max(maxActive, active);
        if (active === 3) allRunning();
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([all, new Promise((resolve) => (timer = setTimeout(resolve, 20_000)))]);
        clearTimeout(timer);
        active--;
        return { status: 'completed', summary: `done ${task}`, history: null };
      },
    });
    const outcomes = await Promise.all(
      ['auth', 'db', 'ui'].map((task) => manager.spawn({ subagentType: 'Code-Explorer', task, background: false }, signal())),
    );
    assert.equal(maxActive, 3, 'all three ran at once (serialized runs would never overlap)');
    assert.deepEqual(outcomes.map((o) => o.summary), ['done auth', 'done db', 'done ui']);
    assert.equal(new Set(outcomes.map((o) => o.agentId)).size, 3);
  });

  it('rejects an unknown type with the list of valid ones, and types outside allowedTypes', async () => {
    const manager = new SubagentManager({ specs: BUILTIN_SUBAGENTS, ui: silentUI, run: async () => ({ status: 'completed', summary: '', history: null }) });
    await assert.rejects(manager.spawn({ subagentType: 'Debugger', task: 'x', background: false }, signal()), (err: Error) => {
      assert.match(err.message, /Unknown subagent type "Debugger"\. Valid types:/);
      for (const spec of BUILTIN_SUBAGENTS) assert.ok(err.message.includes(`- ${spec.name}: `), spec.name);
      return true;
    });
    const scoped = new SubagentManager({ specs: BUILTIN_SUBAGENTS, ui: silentUI, allowedTypes: ['code-explorer'], run: async () => ({ status: 'completed', summary: 'x', history: null }) });
    assert.deepEqual(scoped.types().map((t) => t.name), ['Code-Explorer']);
    await assert.rejects(scoped.spawn({ subagentType: 'Planner', task: 'x', background: false }, signal()), /Valid types:\n- Code-Explorer/);
  });

  it('gives spawning specs a launcher restricted to their spawnable types, sharing agent ids', async () => {
    const manager = new SubagentManager({ specs: BUILTIN_SUBAGENTS, ui: silentUI, run: async () => ({ status: 'completed', summary: 'x', history: null }) });
    assert.equal(manager.launcherFor(findSpec(BUILTIN_SUBAGENTS, 'Code-Explorer')!), undefined);
    const planner = manager.launcherFor(findSpec(BUILTIN_SUBAGENTS, 'Planner')!)!;
    assert.deepEqual(planner.types().map((t) => t.name), ['Code-Explorer']);
    const outcome = await planner.spawn({ subagentType: 'Code-Explorer', task: 't', background: false }, signal());
    assert.equal(manager.output(outcome.agentId)!.status, 'completed');
  });

  it('caps the summary handed to the parent, with a note', async () => {
    const long = 'x'.repeat(5000);
    const { ui } = recordingUI();
    let ended = '';
    ui.onSubagentEnd = (i) => (ended = i.summary);
    const manager = new SubagentManager({ specs: BUILTIN_SUBAGENTS, ui, run: async () => ({ status: 'completed', summary: long, history: null }) });
    const outcome = await manager.spawn({ subagentType: 'Code-Explorer', task: 't', background: false }, signal());
    assert.ok(outcome.summary.startsWith('x'.repeat(MAX_PARENT_SUMMARY_CHARS)));
    assert.ok(outcome.summary.length < MAX_PARENT_SUMMARY_CHARS + 200);
    assert.match(outcome.summary, /summary cut: showing 2,000 of 5,000 chars/);
    assert.equal(ended, outcome.summary);
  });

  it('turns a crashing run into a failed outcome and an aborted one into stopped', async () => {
    const crash = new SubagentManager({ specs: BUILTIN_SUBAGENTS, ui: silentUI, run: async () => { throw new Error('provider down'); } });
    const failed = await crash.spawn({ subagentType: 'Code-Explorer', task: 't', background: false }, signal());
    assert.equal(failed.status, 'failed');
    assert.match(failed.summary, /provider down/);

    const controller = new AbortController();
    const hang = new SubagentManager({
      specs: BUILTIN_SUBAGENTS,
      ui: silentUI,
      run: (_s, _t, o) => new Promise((_resolve, reject) => o.signal.addEventListener('abort', () => reject(new Error('aborted')))),
    });
    const pending = hang.spawn({ subagentType: 'Code-Explorer', task: 't', background: false }, controller.signal);
    controller.abort();
    assert.equal((await pending).status, 'stopped');

    const bg = await hang.spawn({ subagentType: 'Code-Explorer', task: 't', background: true }, signal());
    assert.equal(hang.stop(bg.agentId), true);
    assert.equal((await hang.wait(bg.agentId, signal()))!.status, 'stopped');
  });

  it('handles Ask-User through ui.askUser without calling run', async () => {
    let runs = 0;
    const asked: Array<readonly AskUserQuestion[]> = [];
    const { ui, events } = recordingUI({
      async askUser(questions) {
        asked.push(questions);
        return { answers: [{ header: 'Database', selected: ['SQLite'] }] };
      },
    });
    const manager = new SubagentManager({ specs: BUILTIN_SUBAGENTS, ui, run: async () => { runs++; return { status: 'completed', summary: '', history: null }; } });
    const task = JSON.stringify({
      questions: [{ header: 'Database', question: 'Which database?', options: [{ label: 'Postgres', description: 'server' }, { label: 'SQLite', description: 'file' }], multiSelect: false }],
    });
    const outcome = await manager.spawn({ subagentType: 'ask_user', task, background: false }, signal());
    assert.equal(runs, 0);
    assert.equal(outcome.status, 'completed');
    assert.match(outcome.agentId, /^ask-user-[0-9a-f]{6}$/);
    assert.match(outcome.summary, /\[Database\] Which database\?\n\s+→ SQLite/);
    assert.deepEqual(asked[0]![0]!.options.map((o) => o.label), ['Postgres', 'SQLite', 'Other']);
    assert.equal(events.length, 2);

    const bad = await manager.spawn({ subagentType: 'Ask-User', task: 'which db?', background: false }, signal());
    assert.equal(bad.status, 'failed');
    assert.match(bad.summary, /takes its task as JSON/);

    const headless = new SubagentManager({ specs: BUILTIN_SUBAGENTS, ui: silentUI, run: async () => ({ status: 'completed', summary: '', history: null }) });
    const none = await headless.spawn({ subagentType: 'Ask-User', task, background: false }, signal());
    assert.equal(none.status, 'failed');
    assert.match(none.summary, /no user is available to answer/);
  });
});
