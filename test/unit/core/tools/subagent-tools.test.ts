import * as assert from 'node:assert/strict';
import { ToolDispatcher } from '../../../../src/core/agent/tool-dispatcher';
import { BUILTIN_SUBAGENTS } from '../../../../src/core/subagents/builtin-agents';
import { SubagentManager, type SubagentRunResult } from '../../../../src/core/subagents/subagent-manager';
import { getSubagentOutputTool } from '../../../../src/core/tools/get-subagent-output';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import { spawnSubagentTool } from '../../../../src/core/tools/spawn-subagent';
import type { ToolExecutionContext } from '../../../../src/core/tools/tool';
import { silentUI } from '../../../../src/core/ui';
import { toolContext } from '../../../helpers/tool-context';

describe('spawn_subagent and get_subagent_output', () => {
  const registry = new ToolRegistry().register(spawnSubagentTool).register(getSubagentOutputTool);
  const call = (name: string, args: unknown, ctx: ToolExecutionContext) =>
    registry.execute({ id: 's', name, arguments: JSON.stringify(args) }, ctx);

  function withManager(run: ConstructorParameters<typeof SubagentManager>[0]['run']) {
    const manager = new SubagentManager({ specs: BUILTIN_SUBAGENTS, ui: silentUI, run });
    return { manager, ctx: toolContext({ workspaceRoot: process.cwd(), subagents: manager }) };
  }

  it('are read-only, so the dispatcher runs several spawns of one response concurrently', () => {
    assert.equal(spawnSubagentTool.readOnly, true);
    assert.equal(getSubagentOutputTool.readOnly, true);
  });

  it('overlap when one response asks for several spawns (through the tool dispatcher)', async () => {
    // A run ends once both are running (or after one generous limit): serialized runs never overlap.
    let active = 0;
    let maxActive = 0;
    let bothRunning!: () => void;
    const both = new Promise<void>((resolve) => (bothRunning = resolve));
    const { ctx } = withManager(async (_s, task) => {
      active++;
      maxActive = Math.max(maxActive, active);
      if (active === 2) bothRunning();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([both, new Promise((resolve) => (timer = setTimeout(resolve, 20_000)))]);
      clearTimeout(timer);
      active--;
      return { status: 'completed', summary: `report on ${task}`, history: null };
    });
    const calls = ['auth', 'database'].map((task, i) => ({
      id: `c${i}`,
      name: 'spawn_subagent',
      arguments: JSON.stringify({ subagent_type: 'Code-Explorer', task }),
    }));
    const results = await new ToolDispatcher(registry).dispatch(calls, ctx);
    assert.equal(maxActive, 2);
    assert.match(results[0]!.output, /report on auth/);
    assert.match(results[1]!.output, /report on database/);
  });

  it('returns the subagent summary for a foreground spawn', async () => {
    const tasks: string[] = [];
    const { ctx } = withManager(async (_spec, task) => {
      tasks.push(task);
      return { status: 'completed', summary: 'Routing lives in src/router.ts:10.\nMore detail.', history: null };
    });
    const r = await call('spawn_subagent', { subagent_type: 'code-explorer', task: 'Find the router', extra: 1 }, ctx);
    assert.equal(r.ok, true, r.output);
    assert.match(r.output, /^\[Code-Explorer explorer-[0-9a-f]{6} completed\]\n\nRouting lives in src\/router\.ts:10\./);
    assert.match(r.summary, /^✓ Code-Explorer explorer-[0-9a-f]{6}: Routing lives in src\/router\.ts:10\.$/);
    assert.deepEqual(tasks, ['Find the router']);
  });

  it('starts a background subagent and collects it with get_subagent_output (polling or waiting)', async () => {
    let finish!: (r: SubagentRunResult) => void;
    const { ctx } = withManager(() => new Promise((resolve) => (finish = resolve)));
    const started = await call('spawn_subagent', { subagent_type: 'Security-Reviewer', task: 'audit', background: true }, ctx);
    assert.equal(started.ok, true);
    const id = /id (security-[0-9a-f]{6})/.exec(started.output)![1]!;
    assert.match(started.output, /started in background, id .*use get_subagent_output/);

    const running = await call('get_subagent_output', { agent_id: id }, ctx);
    assert.equal(running.ok, true);
    assert.match(running.output, /still running/);

    const waited = call('get_subagent_output', { agent_id: id, wait: true }, ctx);
    finish({ status: 'completed', summary: 'No findings.', history: null });
    const done = await waited;
    assert.equal(done.ok, true);
    assert.match(done.output, /completed\]\n\nNo findings\./);

    const unknown = await call('get_subagent_output', { agent_id: 'explorer-000000' }, ctx);
    assert.equal(unknown.errorKind, 'not_found');
  });

  it('reports a failed subagent as a failed result', async () => {
    const { ctx } = withManager(async () => ({ status: 'failed', summary: 'Could not reach the model.', history: null }));
    const r = await call('spawn_subagent', { subagent_type: 'Planner', task: 'plan it' }, ctx);
    assert.equal(r.ok, false);
    assert.match(r.output, /Planner planner-[0-9a-f]{6} failed\]\n\nCould not reach the model\./);
  });

  it('lists the valid types for an unknown type, and fails without a launcher', async () => {
    const { ctx } = withManager(async () => ({ status: 'completed', summary: 'x', history: null }));
    let r = await call('spawn_subagent', { subagent_type: 'Debugger', task: 'x' }, ctx);
    assert.equal(r.ok, false);
    assert.equal(r.errorKind, 'not_found');
    assert.match(r.output, /Unknown subagent type "Debugger"\. Valid types:\n- Code-Explorer: /);
    r = await call('spawn_subagent', { subagent_type: 'Code-Explorer', task: 'x' }, toolContext({ workspaceRoot: process.cwd() }));
    assert.equal(r.ok, false);
    assert.match(r.output, /cannot spawn subagents/);
    r = await call('get_subagent_output', { agent_id: 'x' }, toolContext({ workspaceRoot: process.cwd() }));
    assert.equal(r.ok, false);
  });

  it('validates its arguments: missing task or type, non-boolean background', async () => {
    const { ctx } = withManager(async () => ({ status: 'completed', summary: 'x', history: null }));
    let r = await call('spawn_subagent', { subagent_type: 'Code-Explorer' }, ctx);
    assert.match(r.output, /at task/);
    r = await call('spawn_subagent', { task: 'x' }, ctx);
    assert.match(r.output, /at subagent_type/);
    r = await call('spawn_subagent', { subagent_type: 'Code-Explorer', task: 'x', background: 'yes' }, ctx);
    assert.match(r.output, /at background/);
    r = await call('get_subagent_output', {}, ctx);
    assert.match(r.output, /at agent_id/);
  });

  it('resumes an earlier agent by id', async () => {
    const histories: unknown[] = [];
    const { ctx } = withManager(async (_s, task, o) => {
      histories.push(o.history);
      return { status: 'completed', summary: `re: ${task}`, history: [task] };
    });
    const first = await call('spawn_subagent', { subagent_type: 'Code-Explorer', task: 'one' }, ctx);
    const id = /(explorer-[0-9a-f]{6})/.exec(first.output)![1]!;
    const second = await call('spawn_subagent', { subagent_type: 'Code-Explorer', task: 'two', resume: id }, ctx);
    assert.equal(second.ok, true, second.output);
    assert.ok(second.output.includes(id));
    assert.deepEqual(histories, [undefined, ['one']]);
  });
});
