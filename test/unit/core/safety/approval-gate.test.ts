import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ToolDispatcher } from '../../../../src/core/agent/tool-dispatcher';
import type { ToolLifecycle } from '../../../../src/core/tools/tool-lifecycle';
import { approvalGate, sessionApprovalGate as openGate, type ApprovalGate } from '../../../../src/core/safety/approval-gate';
import type { ApprovalLevel } from '../../../../src/core/config/approval-level';
import { AuditLog, auditLogFile, type AuditEntry } from '../../../../src/core/safety/audit-log';
import { PermissionStore, projectPermissionsFile } from '../../../../src/core/safety/permission-store';
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
  afterEach(() => rmSync(root, { recursive: true, force: true }));

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

  describe('with permission files, persistence and the audit log', () => {
    let home: string;
    const notices: string[] = [];
    const gates: ApprovalGate[] = [];
    /** A session's gate; its audit lines are flushed before the folders are removed. */
    const sessionApprovalGate = (...args: Parameters<typeof openGate>) => {
      const gate = openGate(...args);
      gates.push(gate);
      return gate;
    };
    let answers: ApprovalDecision[] = [];
    const scripted: UICallback = {
      onTextDelta() {},
      onToolStart() {},
      onToolEnd() {},
      onNotice: (text) => notices.push(text),
      requestApproval: async (req) => {
        asked.push(req);
        return answers.shift() ?? { action: 'deny' };
      },
    };
    const call = async (lifecycle: ToolLifecycle, name: string, args: unknown, ui: UICallback = scripted) => {
      const [result] = await new ToolDispatcher(registry, lifecycle).dispatch([{ id: 'c', name, arguments: JSON.stringify(args) }], toolContext({ workspaceRoot: root, ui }));
      return result!;
    };
    const gateWithLog = (level: ApprovalLevel) => {
      const audit = new AuditLog(auditLogFile(home, root));
      return { audit, gate: approvalGate(registry, () => level, { permissions: PermissionStore.load({ home, workspaceRoot: root, projectTrusted: true }), audit }) };
    };

    beforeEach(() => {
      home = mkdtempSync(join(tmpdir(), 'opendev-approval-home-'));
      notices.length = 0;
      answers = [];
    });
    afterEach(async () => {
      await Promise.all(gates.splice(0).map((g) => g.flush()));
      rmSync(home, { recursive: true, force: true });
    });

    it('an edited command is judged again: a dangerous or denied edit is refused; one that would ask runs, the user wrote it, and the model is told', async () => {
      const gate = sessionApprovalGate(registry, () => 'semi-auto', { home, workspaceRoot: root });
      answers = [{ action: 'edit', command: 'rm -rf ~' }];
      const dangerous = await call(gate, 'run_command', { command: 'touch x' });
      assert.equal(dangerous.errorKind, 'permission');
      assert.match(dangerous.output, /danger rule "danger:delete-protected"/);
      assert.equal(asked.length, 1);

      answers = [{ action: 'edit', command: 'touch made.txt' }];
      const edited = await call(gate, 'run_command', { command: 'touch other.txt' });
      assert.equal(edited.ok, true);
      assert.deepEqual(asked.slice(1).map((r) => r.command), ['touch other.txt'], 'asked once: the edit is the answer');
      assert.match(edited.output, /^The user edited your command before approving it; this is the output of their version: `touch made.txt`\n/);
      assert.equal(existsSync(join(root, 'made.txt')), true);
      assert.equal(existsSync(join(root, 'other.txt')), false);

      writeFileSync(join(home, 'permissions.json'), JSON.stringify({ rules: [{ type: 'prefix', pattern: 'curl', action: 'deny' }] }));
      const strict = sessionApprovalGate(registry, () => 'semi-auto', { home, workspaceRoot: root });
      answers = [{ action: 'edit', command: 'curl -s https://example.invalid' }];
      const denied = await call(strict, 'run_command', { command: 'wget -q https://example.invalid' });
      assert.equal(denied.errorKind, 'permission');
      assert.match(denied.output, /refused by the permission rule "user:prefix:curl"/);
    });

    it('a write outside the workspace (or to .opendev/) asks even in Auto, with the reason in the request', async () => {
      const gate = sessionApprovalGate(registry, () => 'auto', { home, workspaceRoot: root });
      const outside = `../${basename(root)}-outside.txt`;
      const r = await call(gate, 'write_file', { file_path: outside, content: 'x' });
      assert.equal(r.errorKind, 'rejected');
      assert.match(asked[0]!.title, /writes outside the workspace/);
      assert.equal(existsSync(join(root, outside)), false);

      await call(gate, 'run_command', { command: `echo hi > ${join(tmpdir(), `${basename(root)}-redirect.txt`)}` });
      assert.match(asked[1]!.title, /^Run `echo hi > .*`\? \(writes outside the workspace/);
      await call(gate, 'write_file', { file_path: '.opendev/permissions.json', content: '{"rules":[]}' });
      assert.match(asked[2]!.title, /changes \.opendev\//);
      assert.equal(asked.length, 3);
      assert.equal((await call(gate, 'write_file', { file_path: 'inside.txt', content: 'x' })).ok, true);
      assert.equal(asked.length, 3, 'inside the workspace Auto does not ask');
    });

    it('"Always allow" survives a restart: a new gate does not ask again, in this workspace only', async () => {
      answers = [{ action: 'always' }, { action: 'always' }];
      const first = sessionApprovalGate(registry, () => 'manual', { home, workspaceRoot: root });
      assert.equal((await call(first, 'run_command', { command: 'echo one' })).ok, true);
      assert.equal((await call(first, 'write_file', { file_path: 'first.txt', content: 'x' })).ok, true);
      assert.equal(asked.length, 2);

      const restarted = sessionApprovalGate(registry, () => 'manual', { home, workspaceRoot: root });
      assert.equal((await call(restarted, 'run_command', { command: 'echo two' })).ok, true);
      assert.equal((await call(restarted, 'write_file', { file_path: 'second.txt', content: 'x' })).ok, true);
      assert.equal(asked.length, 2, 'nothing asked after the restart');
      const saved = JSON.parse(readFileSync(join(home, 'permissions.json'), 'utf8')) as { rules: Array<{ type: string; pattern?: string; tool?: string; workspace?: string }> };
      assert.deepEqual(saved.rules.map((r) => [r.type, r.pattern ?? r.tool, r.workspace]), [['prefix', 'echo', root], ['pattern', 'write_file', root]]);

      const other = mkdtempSync(join(tmpdir(), 'opendev-approval-other-'));
      const elsewhere = sessionApprovalGate(registry, () => 'manual', { home, workspaceRoot: other });
      await new ToolDispatcher(registry, elsewhere).dispatch([{ id: 'o', name: 'run_command', arguments: '{"command":"echo three"}' }], toolContext({ workspaceRoot: other, ui: scripted }));
      assert.equal(asked.length, 3, 'another workspace asks');
      rmSync(other, { recursive: true, force: true });
    });

    it('a corrupt permissions file is reported once in the chat, left untouched, and the gate keeps working', async () => {
      writeFileSync(join(home, 'permissions.json'), '{"rules": [ oops');
      mkdirSync(join(root, '.opendev'));
      writeFileSync(projectPermissionsFile(root), JSON.stringify({ rules: [{ type: 'prefix', pattern: 'touch', action: 'allow' }, { type: 'prefix', action: 'allow' }] }));
      const gate = sessionApprovalGate(registry, () => 'semi-auto', { home, workspaceRoot: root, projectTrusted: true });
      assert.equal((await call(gate, 'run_command', { command: 'ls' })).ok, true);
      assert.equal((await call(gate, 'run_command', { command: 'touch t.txt' })).ok, true, 'the (trusted) project file still applies');
      answers = [{ action: 'always' }];
      assert.equal((await call(gate, 'run_command', { command: 'mkdir d' })).ok, true);
      assert.equal(notices.filter((n) => /not valid JSON/.test(n)).length, 2, 'once on load, once when "Always allow" could not be saved');
      assert.equal(notices.filter((n) => /rule 2 is ignored: a prefix rule needs a pattern/.test(n)).length, 1);
      assert.equal(readFileSync(join(home, 'permissions.json'), 'utf8'), '{"rules": [ oops');
    });

    it('every decision goes to the audit log: time, tool, command, action, rule, level and who decided', async () => {
      writeFileSync(join(home, 'permissions.json'), JSON.stringify({ rules: [{ type: 'prefix', pattern: 'npm publish', action: 'deny' }] }));
      const { gate, audit } = gateWithLog('semi-auto');
      await call(gate, 'run_command', { command: 'ls' });
      await call(gate, 'run_command', { command: 'npm publish' });
      await call(gate, 'run_command', { command: 'rm -rf ~' });
      answers = [{ action: 'deny', feedback: 'no' }, { action: 'edit', command: 'echo edited' }];
      await call(gate, 'write_file', { file_path: 'a2.txt', content: 'x' });
      await call(gate, 'run_command', { command: 'touch z' });
      await call(gate, 'run_command', { command: 'echo hi > out.txt' }, { onTextDelta() {}, onToolStart() {}, onToolEnd() {} });
      await audit.flush();
      const lines = readFileSync(auditLogFile(home, root), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as AuditEntry);
      assert.equal(auditLogFile(home, root).startsWith(join(home, 'projects')), true);
      const brief = lines.map((l) => [l.tool, l.summary, l.action, l.decidedBy, l.rule?.id, l.level]);
      assert.deepEqual(brief, [
        ['run_command', 'ls', 'allow', 'level', undefined, 'semi-auto'],
        ['run_command', 'npm publish', 'deny', 'rule', 'user:prefix:npm publish', 'semi-auto'],
        ['run_command', 'rm -rf ~', 'deny', 'danger', 'danger:delete-protected', 'semi-auto'],
        ['write_file', 'a2.txt', 'deny', 'user', undefined, 'semi-auto'],
        ['run_command', 'echo edited', 'allow', 'user', undefined, 'semi-auto'],
        ['run_command', 'echo hi > out.txt', 'deny', 'unattended', undefined, 'semi-auto'],
      ]);
      assert.equal(lines[1]!.rule?.source, 'user');
      assert.equal(lines[4]!.editedFrom, 'touch z');
      assert.match(lines[5]!.reason ?? '', /writes to `out.txt`/);
      for (const l of lines) assert.ok(!Number.isNaN(Date.parse(l.time)));
    });

    it('an audit log that cannot be written warns once and never blocks a call', async () => {
      writeFileSync(join(home, 'projects'), 'a file where the folder should be');
      const { gate, audit } = gateWithLog('auto');
      gates.push(gate);
      assert.equal((await call(gate, 'run_command', { command: 'echo one' })).ok, true);
      assert.equal((await call(gate, 'run_command', { command: 'echo two' })).ok, true);
      await audit.flush();
      assert.equal(notices.filter((n) => /Could not write the approval audit log/.test(n)).length, 1);
    });

    it('a headless Auto run refuses what still needs approval, with the reason for the model', async () => {
      const gate = sessionApprovalGate(registry, () => 'auto', { home, workspaceRoot: root });
      const headless: UICallback = { onTextDelta() {}, onToolStart() {}, onToolEnd() {} };
      const r = await call(gate, 'run_command', { command: 'ls > listing.txt' }, headless);
      assert.equal(r.errorKind, 'permission');
      assert.match(r.output, /run_command needs the user's approval \(it writes to `listing.txt`\), and no one is available/);
      assert.equal(existsSync(join(root, 'listing.txt')), false);
      assert.equal((await call(gate, 'run_command', { command: 'git --version' }, headless)).ok, true);
    });

    it('the todo list never asks', async () => {
      const gate = sessionApprovalGate(registry, () => 'manual', { home, workspaceRoot: root });
      await call(gate, 'write_todos', { todos: [{ title: 'one', status: 'todo' }] });
      assert.equal(asked.length, 0);
    });
  });
});
