// What asks at every level, and says why (issue 13 §5): the approval request carries `mustAsk` for the
// workspace boundary, protected configuration, the caution rules and hidden command lines, and nothing
// for an ask that only the level makes. Through the real approval gate at the Auto level, with real
// files and links in a temp workspace.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolDispatcher } from '../../../../src/core/agent/tool-dispatcher';
import { approvalGate } from '../../../../src/core/safety/approval-gate';
import type { ApprovalLevel } from '../../../../src/core/config/approval-level';
import { AuditLog, type AuditEntry } from '../../../../src/core/safety/audit-log';
import { createBuiltinRegistry } from '../../../../src/core/tools/builtin-tools';
import type { ApprovalDecision, ApprovalRequest, UICallback } from '../../../../src/core/ui';
import { toolContext } from '../../../helpers/tool-context';

describe('must-ask: what a blanket approval may not answer', () => {
  const registry = createBuiltinRegistry();
  let root: string;
  let asked: ApprovalRequest[];
  let answer: ApprovalDecision;
  const ui: UICallback = { onTextDelta() {}, onToolStart() {}, onToolEnd() {}, requestApproval: async (req) => (asked.push(req), answer) };
  const call = async (name: string, args: Record<string, unknown>, level: ApprovalLevel = 'auto', audit?: AuditLog) => {
    asked = [];
    const gate = approvalGate(registry, () => level, audit ? { audit } : {});
    const [result] = await new ToolDispatcher(registry, gate).dispatch([{ id: 'c', name, arguments: JSON.stringify(args) }], toolContext({ workspaceRoot: root, ui }));
    await gate.flush();
    return { result: result!, request: asked[0] };
  };
  const kinds = async (name: string, args: Record<string, unknown>, level: ApprovalLevel = 'auto') => {
    const { request } = await call(name, args, level);
    const all = request?.mustAsk?.all.map((c) => c.kind);
    // One kind once: a copy into .git/ is protected both as a write and by the protected-path rule.
    return all && [...new Set(all)];
  };
  const write = (file_path: string) => kinds('write_file', { file_path, content: 'x', create_dirs: true });
  const run = (command: string, level: ApprovalLevel = 'auto') => kinds('run_command', { command }, level);

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-must-ask-'));
    answer = { action: 'deny' };
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('protected configuration: .git/ (at any depth), .opendev/, .claude/, .vscode/ and the root .mcp.json, each named in the reason', async () => {
    for (const [path, names] of [
      ['.git/hooks/pre-commit', /changes \.git\/ \(the repository's git internals: hooks and config run programs\)/],
      ['.opendev/settings.json', /changes \.opendev\/ \(OpenDev's configuration/],
      ['.claude/settings.json', /changes \.claude\/ \(Claude's configuration/],
      ['.vscode/tasks.json', /changes \.vscode\/ \(VS Code's workspace configuration/],
      ['.mcp.json', /changes \.mcp\.json \(the MCP servers of the project/],
      ['vendor/lib/.git/config', /changes vendor\/lib\/\.git\/ \(a nested repository's git internals/],
    ] as const) {
      const { request } = await call('write_file', { file_path: path, content: 'x', create_dirs: true });
      assert.equal(request?.mustAsk?.kind, 'protected', path);
      assert.match(request!.mustAsk!.reason, names, path);
      assert.match(request!.title, names, `${path}: the menu says it too`);
      assert.equal(existsSync(join(root, path)), false, path);
    }
    assert.equal(await write('docs/.mcp.json'), undefined, 'only the root .mcp.json configures MCP servers');
  });

  it('a plan file in .opendev/plans/ is no configuration, unless a link takes it elsewhere', async () => {
    answer = { action: 'allow' };
    assert.equal(await write('.opendev/plans/add-auth.md'), undefined);
    assert.equal(asked.length, 0, 'Auto writes a plan file unasked');
    assert.deepEqual(await write('.opendev/plans/deeper/x.md'), ['protected']);
    rmSync(join(root, '.opendev/plans'), { recursive: true });
    mkdirSync(join(root, '.git/hooks'), { recursive: true });
    symlinkSync(join(root, '.git/hooks'), join(root, '.opendev/plans'));
    assert.deepEqual(await write('.opendev/plans/pre-commit.md'), ['protected'], 'the link leads into .git/');
  });

  it('outside the workspace, and paths known only when the command runs', async () => {
    assert.deepEqual(await write(join(tmpdir(), 'elsewhere.txt')), ['outside-workspace']);
    assert.deepEqual(await run('echo x > ../outside.txt'), ['outside-workspace']);
    assert.deepEqual(await run('echo x > "$TARGET"'), ['outside-workspace']);
    // With several targets, the strictest one leads.
    const { request } = await call('run_command', { command: 'echo x | tee ../a.txt .git/hooks/post-merge' });
    assert.equal(request?.mustAsk?.kind, 'protected');
  });

  it('commands: git config writes and copies into protected folders are protected; force pushes and rm -r are caution; hidden lines are hidden', async () => {
    for (const command of ['git config core.hooksPath .hooks', 'git config --local core.fsmonitor ./x', 'git config --global alias.st "!sh"', 'cp hook .git/hooks/pre-commit', 'mv x.json .opendev/permissions.json', 'sed -i s/a/b/ .vscode/settings.json', 'rm -rf .opendev']) {
      assert.deepEqual(await run(command), ['protected'], command);
    }
    for (const command of ['git push --force origin main', 'git reset --hard HEAD~1', 'rm -rf build', 'rm -r --verbose dist']) {
      assert.deepEqual(await run(command), ['caution'], command);
    }
    assert.deepEqual(await run('echo ${!name}'), ['hidden']);
    assert.deepEqual(await run('git push --force origin main > ../log.txt'), ['outside-workspace', 'caution'], 'both concerns are listed');
  });

  it('nothing for what only the level asks, or for reading config: a blanket approval may answer those', async () => {
    assert.equal(await run('echo x > notes.txt'), undefined, 'a redirect inside the workspace asks at Auto, without mustAsk');
    assert.equal(await run('npm test', 'semi-auto'), undefined);
    assert.equal(await write('src/app.ts'), undefined);
    for (const command of ['git config user.name', 'git config --get core.hooksPath', 'git config --list', 'cat .git/config', 'cp .opendev/plans/a.md .opendev/plans/b.md', 'rm notes.txt']) {
      const { result, request } = await call('run_command', { command });
      assert.equal(request, undefined, `${command} runs at Auto unasked`);
      assert.notEqual(result.errorKind, 'permission', command);
    }
  });

  it('a front end that refuses by policy (unattended) gives the model its own words, and the audit log says nobody was asked', async () => {
    const home = mkdtempSync(join(tmpdir(), 'opendev-must-ask-home-'));
    const file = join(home, 'audit.jsonl');
    answer = { action: 'deny', unattended: true, feedback: 'Refused by policy: ask a person.' };
    const { result } = await call('write_file', { file_path: '.vscode/settings.json', content: '{}', create_dirs: true }, 'auto', new AuditLog(file));
    assert.equal(result.errorKind, 'permission');
    assert.equal(result.output, 'Error (permission): Refused by policy: ask a person.');
    const entry = JSON.parse(readFileSync(file, 'utf8').trim()) as AuditEntry;
    assert.deepEqual([entry.action, entry.decidedBy, entry.asked], ['deny', 'unattended', undefined]);
    rmSync(home, { recursive: true, force: true });
  });
});
