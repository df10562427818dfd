import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolDispatcher } from '../../../../src/core/agent/tool-dispatcher';
import { approvalGate } from '../../../../src/core/safety/approval-gate';
import type { ApprovalLevel } from '../../../../src/core/safety/approval-level';
import { isKnownSafeCommand } from '../../../../src/core/safety/safe-commands';
import { createBuiltinRegistry } from '../../../../src/core/tools/builtin-tools';
import type { ToolExecutionContext } from '../../../../src/core/tools/tool';
import type { ApprovalDecision, ApprovalRequest, UICallback } from '../../../../src/core/ui';
import { toolContext } from '../../../helpers/tool-context';

describe('approval gate', () => {
  let root: string;
  const registry = createBuiltinRegistry();
  const asked: ApprovalRequest[] = [];
  let answer: ApprovalDecision = { action: 'allow' };
  const ui: UICallback = {
    onTextDelta() {},
    onToolStart() {},
    onToolEnd() {},
    requestApproval: async (req) => {
      asked.push(req);
      return answer;
    },
  };
  const run = async (level: ApprovalLevel, name: string, args: unknown, ctx: Partial<ToolExecutionContext> = {}) => {
    const dispatcher = new ToolDispatcher(registry, approvalGate(registry, () => level));
    const [result] = await dispatcher.dispatch([{ id: 'c', name, arguments: JSON.stringify(args) }], toolContext({ workspaceRoot: root, ui, ...ctx }));
    return result!;
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-approval-'));
    writeFileSync(join(root, 'a.txt'), 'hello\n');
    asked.length = 0;
    answer = { action: 'allow' };
  });

  it('never asks for read-only tools', async () => {
    assert.equal((await run('manual', 'read_file', { file_path: 'a.txt' })).ok, true);
    assert.equal(asked.length, 0);
  });

  it('semi-auto asks before an edit, with the diff, and "deny" leaves the file alone with a reason for the model', async () => {
    await run('semi-auto', 'read_file', { file_path: 'a.txt' });
    answer = { action: 'deny', feedback: 'keep hello' };
    const r = await run('semi-auto', 'edit_file', { file_path: 'a.txt', old_content: 'hello', new_content: 'bye' });
    assert.equal(asked.length, 1);
    assert.match(asked[0]!.diff ?? '', /-hello[\s\S]*\+bye/);
    assert.equal(r.errorKind, 'rejected');
    assert.match(r.output, /The user denied edit_file: keep hello/);
    assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'hello\n');
  });

  it('semi-auto runs known-safe commands unasked, asks for the rest, and "edit" runs the edited command', async () => {
    assert.equal((await run('semi-auto', 'run_command', { command: 'ls' })).ok, true);
    assert.equal(asked.length, 0);
    answer = { action: 'edit', command: 'echo edited' };
    const r = await run('semi-auto', 'run_command', { command: 'touch x && echo original' });
    assert.equal(asked[0]!.command, 'touch x && echo original');
    assert.match(r.output, /edited/);
    assert.doesNotMatch(r.output, /original/);
  });

  it('manual asks even for safe commands; "always" is remembered for that program', async () => {
    const dispatcher = new ToolDispatcher(registry, approvalGate(registry, () => 'manual'));
    const ctx = toolContext({ workspaceRoot: root, ui });
    answer = { action: 'always' };
    await dispatcher.dispatch([{ id: '1', name: 'run_command', arguments: '{"command":"echo one"}' }], ctx);
    await dispatcher.dispatch([{ id: '2', name: 'run_command', arguments: '{"command":"echo two"}' }], ctx);
    assert.equal(asked.length, 1, 'the second echo was already allowed');
  });

  it('auto never asks; plan-approved edits (approve_auto) never ask', async () => {
    await run('auto', 'write_file', { file_path: 'b.txt', content: 'x' });
    await run('semi-auto', 'write_file', { file_path: 'c.txt', content: 'x' }, { mode: { mode: 'normal', autoApproveEdits: true } });
    assert.equal(asked.length, 0);
  });

  it('with no one to ask (headless), a change is refused with a reason, nothing runs', async () => {
    const headless: UICallback = { onTextDelta() {}, onToolStart() {}, onToolEnd() {} };
    const r = await run('semi-auto', 'write_file', { file_path: 'd.txt', content: 'x' }, { ui: headless });
    assert.equal(r.errorKind, 'permission');
    assert.match(r.output, /no one is available to approve/);
    assert.throws(() => readFileSync(join(root, 'd.txt')));
  });

  it('knows which commands only read', () => {
    for (const c of ['ls -la', 'git status', 'git diff HEAD~1', 'cat README.md', 'grep -n foo src/a.ts', 'find . -name "*.ts"']) assert.equal(isKnownSafeCommand(c), true, c);
    for (const c of ['rm a', 'ls; rm a', 'cat a > b', 'echo $(whoami)', 'git push', 'find . -delete', 'git log --output=x', 'ls | sh']) assert.equal(isKnownSafeCommand(c), false, c);
  });
});
