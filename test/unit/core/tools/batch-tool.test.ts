import * as assert from 'node:assert/strict';
import { z } from 'zod';
import { ToolDispatcher } from '../../../../src/core/agent/tool-dispatcher';
import type { ToolLifecycle } from '../../../../src/core/tools/tool-lifecycle';
import type { ToolCall } from '../../../../src/core/messages';
import { batchTool } from '../../../../src/core/tools/batch-tool';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { Tool } from '../../../../src/core/tools/tool';
import { toolContext } from '../../../helpers/tool-context';

/** A fake tool that sleeps `ms` and records how many of its kind run at once. */
function slowTool(name: string, stats: { running: number; peak: number; started: string[] }, readOnly = true): Tool {
  const schema = z.object({ ms: z.number(), tag: z.string() });
  const tool: Tool<typeof schema> = {
    name,
    category: 'meta',
    readOnly,
    schema,
    async run(args) {
      stats.started.push(args.tag);
      stats.running++;
      stats.peak = Math.max(stats.peak, stats.running);
      await new Promise((r) => setTimeout(r, args.ms));
      stats.running--;
      return { ok: true, output: `done ${args.tag}`, summary: `✓ ${args.tag}` };
    },
  };
  return tool as Tool;
}

describe('batch_tool', () => {
  let stats: { running: number; peak: number; started: string[] };
  let registry: ToolRegistry;
  const ctx = () => toolContext({ workspaceRoot: process.cwd() });
  const batch = (args: unknown): ToolCall => ({ id: 'b1', name: 'batch_tool', arguments: JSON.stringify(args) });
  const calls = (n: number, ms: (i: number) => number, tool = 'slow') => Array.from({ length: n }, (_, i) => ({ tool, args: { ms: ms(i), tag: `t${i}` } }));

  beforeEach(() => {
    stats = { running: 0, peak: 0, started: [] };
    registry = new ToolRegistry().register(batchTool).register(slowTool('slow', stats)).register(slowTool('slow_write', stats, false));
  });

  it('runs parallel calls concurrently, five at most, and keeps the call order in the results', async () => {
    const [r] = await new ToolDispatcher(registry).dispatch([batch({ mode: 'parallel', calls: calls(7, (i) => 120 - i * 10) })], ctx());
    assert.equal(r!.ok, true, r!.output);
    assert.equal(stats.peak, 5, 'five ran at once');
    const order = [...r!.output.matchAll(/done (t\d)/g)].map((m) => m[1]);
    assert.deepEqual(order, ['t0', 't1', 't2', 't3', 't4', 't5', 't6'], 'results in call order although later calls finish first');
    assert.match(r!.output, /^Batch of 7 \(parallel\): 7 succeeded\./);
    assert.equal(r!.summary, '✓ Batch: 7 calls (parallel)');
  });

  it('runs serial calls one after another, in order, also read-only ones', async () => {
    const [r] = await new ToolDispatcher(registry).dispatch([batch({ mode: 'serial', calls: calls(4, () => 15) })], ctx());
    assert.equal(r!.ok, true);
    assert.equal(stats.peak, 1);
    assert.deepEqual(stats.started, ['t0', 't1', 't2', 't3']);
  });

  it('runs writes in parallel when the model asks for parallel', async () => {
    await new ToolDispatcher(registry).dispatch([batch({ mode: 'parallel', calls: calls(3, () => 40, 'slow_write') })], ctx());
    assert.equal(stats.peak, 3);
  });

  it('passes every inner call through the lifecycle seams and the UI events, each with its own id', async () => {
    const seen: string[] = [];
    const lifecycle: ToolLifecycle = {
      async before(call) {
        seen.push(`before ${call.name}`);
        if (call.name === 'slow' && call.arguments.includes('"t1"')) return { proceed: false, result: { ok: false, output: 'Denied by the user.', summary: '✗ denied', errorKind: 'permission' } };
        return { proceed: true, call };
      },
      after(call, result) {
        seen.push(`after ${call.name} ${result.ok}`);
      },
    };
    const ids: string[] = [];
    const ui = { ...toolContext({ workspaceRoot: '.' }).ui, onToolStart: (info: { id: string }) => ids.push(info.id), onToolEnd: () => {} };
    const [r] = await new ToolDispatcher(registry, lifecycle).dispatch([batch({ mode: 'serial', calls: calls(3, () => 1) })], toolContext({ workspaceRoot: '.', ui }));
    assert.deepEqual(seen, [
      'before batch_tool',
      'before slow', 'after slow true',
      'before slow', 'after slow false',
      'before slow', 'after slow true',
      'after batch_tool false',
    ]);
    assert.equal(new Set(ids).size, 4, 'the batch and each inner call have distinct ids');
    assert.deepEqual(stats.started, ['t0', 't2'], 'the vetoed call did not run');
    assert.match(r!.output, /\[2\/3\] slow ✗\nDenied by the user\./);
    assert.equal(r!.ok, false);
    assert.equal(r!.errorKind, 'permission');
    assert.equal(r!.summary, '✗ Batch: 3 calls (serial), 1 failed');
  });

  it('validates each inner call with the registry: unknown tools and bad arguments fail alone', async () => {
    const [r] = await new ToolDispatcher(registry).dispatch([
      batch({ mode: 'parallel', calls: [{ tool: 'slow', args: { ms: 1, tag: 'ok' } }, { tool: 'nope', args: {} }, { tool: 'slow', args: { ms: 'x' } }, { tool: 'slow', args: '{"ms":1,"tag":"str"}' }] }),
    ], ctx());
    assert.match(r!.output, /\[1\/4\] slow ✓\ndone ok/);
    assert.match(r!.output, /\[2\/4\] nope ✗\nError \(not_found\): Unknown tool "nope"/);
    assert.match(r!.output, /\[3\/4\] slow ✗\nError \(other\): Invalid arguments for slow/);
    assert.match(r!.output, /\[4\/4\] slow ✓\ndone str/, 'args may also come as a JSON string');
  });

  it('refuses a batch that contains batch_tool, running nothing', async () => {
    const [r] = await new ToolDispatcher(registry).dispatch([
      batch({ mode: 'parallel', calls: [{ tool: 'slow', args: { ms: 1, tag: 'a' } }, { tool: 'batch_tool', args: { mode: 'serial', calls: [] } }] }),
    ], ctx());
    assert.equal(r!.ok, false);
    assert.match(r!.output, /Call 2 is batch_tool: a batch cannot contain another batch/);
    assert.deepEqual(stats.started, []);
  });

  it('names a missing mode or empty calls, and is refused in plan mode (it may carry writes)', async () => {
    const d = new ToolDispatcher(registry);
    assert.match((await d.dispatch([batch({ calls: calls(1, () => 1) })], ctx()))[0]!.output, /mode/);
    assert.match((await d.dispatch([batch({ mode: 'serial', calls: [] })], ctx()))[0]!.output, /calls/);
    const plan = toolContext({ workspaceRoot: '.', mode: { mode: 'plan', autoApproveEdits: false } });
    assert.equal((await d.dispatch([batch({ mode: 'serial', calls: calls(1, () => 1) })], plan))[0]!.errorKind, 'permission');
  });

  it('explains itself when run without a dispatcher', async () => {
    const r = await registry.execute(batch({ mode: 'serial', calls: calls(1, () => 1) }), ctx());
    assert.match(r.output, /no tool dispatcher/);
  });
});
