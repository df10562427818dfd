import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { ToolDispatcher } from '../../../../src/core/agent/tool-dispatcher';
import { approvalGate } from '../../../../src/core/safety/approval-gate';
import { composeLifecycles, hooksLifecycle } from '../../../../src/core/hooks/tool-hooks';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { Tool } from '../../../../src/core/tools/tool';
import type { ApprovalRequest, UICallback } from '../../../../src/core/ui';
import { toolContext } from '../../../helpers/tool-context';

/**
 * Tools say what a person is asked about (`Tool.approval`), whatever they are called: the gate
 * judges that, not the tool's name. A call's arguments are parsed and validated once, whatever
 * reads them on the way (hooks, the gate, the registry, the tool).
 */
describe('approval subjects and arguments read once', () => {
  let root: string;
  const asked: ApprovalRequest[] = [];
  const ui: UICallback = {
    onTextDelta() {},
    onToolStart() {},
    onToolEnd() {},
    requestApproval: async (request) => {
      asked.push(request);
      return { action: 'allow' };
    },
  };
  let validations = 0;
  let ran: string[] = [];
  const schema = z.object({ line: z.string() }).refine(() => ++validations > 0);
  /** A shell tool by another name, as an MCP server or a plugin might bring. */
  const shell: Tool<typeof schema> = {
    name: 'exec_shell',
    category: 'process',
    readOnly: false,
    schema,
    approval: (args) => ({ kind: 'command', command: args.line, sandbox: true, withCommand: (line) => ({ ...args, line }) }),
    async run(args) {
      ran.push(args.line);
      return { ok: true, output: 'done', summary: 'done' };
    },
  };
  const registry = new ToolRegistry().register(shell);
  const call = (line: string, id = 'c1') => ({ id, name: 'exec_shell', arguments: JSON.stringify({ line }) });

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-subject-'));
    asked.length = 0;
    validations = 0;
    ran = [];
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('a tool whose calls are commands is judged as commands: the danger rules refuse, and the question shows the command', async () => {
    const dispatcher = new ToolDispatcher(registry, approvalGate(registry, () => 'auto'));
    const [danger] = await dispatcher.dispatch([call('rm -rf ~')], toolContext({ workspaceRoot: root, ui }));
    assert.equal(danger!.ok, false);
    assert.equal(danger!.errorKind, 'permission');
    assert.deepEqual(ran, [], 'nothing ran');

    const manual = new ToolDispatcher(registry, approvalGate(registry, () => 'manual'));
    await manual.dispatch([call('ls -la', 'c2')], toolContext({ workspaceRoot: root, ui }));
    assert.equal(asked[0]?.command, 'ls -la', 'the user may edit it, as any command');
    assert.equal(asked[0]?.title, 'Run `ls -la`?');
    assert.deepEqual(ran, ['ls -la']);
  });

  it('hooks, the gate and the registry read a call once: its schema validates it once', async () => {
    const seen = join(root, 'hook-input.json');
    const hooks = hooksLifecycle({ PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: `cat > '${seen}'` }] }] }, { sessionId: 's', workspaceRoot: root });
    const dispatcher = new ToolDispatcher(registry, composeLifecycles(hooks, approvalGate(registry, () => 'manual')));
    const [result] = await dispatcher.dispatch([call('echo one')], toolContext({ workspaceRoot: root, ui }));
    assert.equal(result!.ok, true, result!.output);
    assert.equal(asked.length, 1, 'the gate asked about it');
    assert.deepEqual(ran, ['echo one']);
    assert.deepEqual(JSON.parse(readFileSync(seen, 'utf8')).tool_input, { line: 'echo one' }, 'the hook saw the arguments');
    assert.equal(validations, 1);
  });

  it('a question a hook asks shows what the tool says the call is about: the command, which the user may edit', async () => {
    const ask = `echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"a deploy"}}'`;
    const hooks = hooksLifecycle({ PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: ask }] }] }, { sessionId: 's', workspaceRoot: root, tools: (name) => registry.get(name) });
    const editing: UICallback = { ...ui, requestApproval: async (request) => (asked.push(request), { action: 'edit', command: 'echo dry run' }) };
    const [result] = await new ToolDispatcher(registry, hooks).dispatch([call('deploy --prod')], toolContext({ workspaceRoot: root, ui: editing }));
    assert.equal(result!.ok, true, result!.output);
    assert.deepEqual(asked.map((r) => [r.title, r.command]), [['Hook asks: a deploy', 'deploy --prod']]);
    assert.deepEqual(ran, ['echo dry run']);
  });
});
