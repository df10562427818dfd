import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMainAgent } from '../../../../src/core/agent/create-agent';
import type { CommandTerminalPort, CommandView } from '../../../../src/core/host';
import { createBuiltinRegistry } from '../../../../src/core/tools/builtin-tools';
import { silentUI } from '../../../../src/core/ui';
import { FakeProvider, toolResults } from '../../../fixtures/fake-provider';
import { running, until } from '../process/process-helpers';

/**
 * The process tools through the real factory: the host's terminal port and the session's process
 * manager reach every tool call (main agent and subagents), and disposing the agent ends its tasks.
 */
describe('run_command through the agent factory', function () {
  this.timeout(30_000);
  const fake = new FakeProvider();
  let workspace: string;
  let shown: string[];
  const terminal: CommandTerminalPort = {
    showCommand: ({ command }) => {
      shown.push(`fg: ${command}`);
      return { write: (c) => void shown.push(`out: ${c}`), end: (o) => void shown.push(`end: ${o.status}`) } satisfies CommandView;
    },
    showBackgroundTask: ({ command }) => {
      shown.push(`bg: ${command}`);
      return { write() {}, end: (o) => void shown.push(`bg end: ${o.status}`) };
    },
  };
  const agent = () =>
    createMainAgent({
      roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'k', baseUrl: fake.openaiBaseUrl } },
      workspaceRoot: workspace,
      home: join(workspace, '.home'),
      host: { terminal },
      processes: { limits: { initialWindowMs: 300, stopGraceMs: 500 } },
      approvalLevel: 'auto', // these tests are about processes, not approvals
    });

  before(async () => {
    assert.ok(
      createBuiltinRegistry().get('run_command'),
      'run_command is not registered: createBuiltinRegistry() (src/core/tools/builtin-tools.ts) must register processTools()',
    );
    await fake.start();
  });
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    shown = [];
    workspace = mkdtempSync(join(tmpdir(), 'opendev-agent-run-'));
  });
  afterEach(() => rmSync(workspace, { recursive: true, force: true }));

  it('a command the model asks for runs in the workspace and is shown in the host terminal', async () => {
    fake.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo hello-terminal' } }] }, { text: 'done' });
    const a = await agent();
    const result = await a.runTurn('say hello', silentUI);
    a.dispose();
    assert.equal(result.status, 'completed');
    assert.match(toolResults(fake.requests[1]!)[0]!.content, /^hello-terminal\n\n\[exit code 0/);
    assert.deepEqual(shown, ['fg: echo hello-terminal', 'out: hello-terminal\n', 'end: completed']);
  });

  it("disposing the agent kills the background tasks of the main agent and of its subagents", async () => {
    fake.enqueue(
      // main agent: a background task, then a subagent
      { toolCalls: [{ name: 'run_command', arguments: { command: 'sleep 60', background: true } }] },
      { toolCalls: [{ name: 'spawn_subagent', arguments: { subagent_type: 'PR-Reviewer', task: 'run the checks' } }] },
      // the subagent starts its own background task, then reports
      { toolCalls: [{ name: 'run_command', arguments: { command: 'sleep 61', background: true } }] },
      { text: 'checks started' },
      // main agent answers
      { text: 'both running' },
    );
    const a = await agent();
    const result = await a.runTurn('start things', silentUI);
    assert.equal(result.status, 'completed');
    const pids = fake.requests
      .flatMap((r) => toolResults(r))
      .map((t) => /· pid (\d+) ·/.exec(t.content)?.[1])
      .filter((p): p is string => p !== undefined)
      .map(Number);
    assert.equal(new Set(pids).size, 2, `two tasks: ${pids.join(', ')}`);
    assert.ok(pids.every(running));
    assert.deepEqual(shown.filter((s) => s.startsWith('bg: ')), ['bg: sleep 60', 'bg: sleep 61']);

    a.dispose();
    await until(() => pids.every((p) => !running(p)), 'the tasks to die');
    await until(() => shown.filter((s) => s === 'bg end: killed').length === 2, 'both tabs to show the end');
  });
});
