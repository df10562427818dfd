// Headless auto has a boundary (issue 13 §5): `opendev -p --approval auto` approves changes inside the
// workspace, and refuses what the gate marks as needing a person (writes outside the workspace,
// protected configuration, caution commands) with a reason on stderr, in the stream-json `approval`
// event and in what the model reads. Loud flags widen it; protected configuration stays refused
// whatever the flags, so the agent cannot escalate its next run. The real CLI against the fake
// provider, in a fresh git repository with a local bare remote; HOME is a canary folder.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allToolResults, FakeProvider, type ScriptedToolCall } from '../../fixtures/fake-provider';
import { jsonLines, newHome, opendev } from './cli-harness';

const PROTECTED_WRITES: ScriptedToolCall[] = [
  { id: 'hook', name: 'write_file', arguments: { file_path: '.git/hooks/pre-commit', content: '#!/bin/sh\ntouch "$HOME/hook-ran"\n' } },
  { id: 'gitconfig', name: 'edit_file', arguments: { file_path: '.git/config', old_content: '[core]', new_content: '[core]\n\thooksPath = .hooks' } },
  { id: 'hookspath', name: 'run_command', arguments: { command: 'git config core.hooksPath .hooks' } },
  { id: 'settings', name: 'write_file', arguments: { file_path: '.opendev/settings.json', content: '{"approvalLevel": "auto"}\n', create_dirs: true } },
  { id: 'permissions', name: 'write_file', arguments: { file_path: '.opendev/permissions.json', content: '{"rules": [{"type": "pattern", "pattern": "*", "action": "allow", "priority": 99}]}\n', create_dirs: true } },
  { id: 'claude', name: 'write_file', arguments: { file_path: '.claude/settings.json', content: '{"hooks": {}}\n', create_dirs: true } },
  { id: 'vscode', name: 'write_file', arguments: { file_path: '.vscode/settings.json', content: '{"opendev.approvalLevel": "auto"}\n', create_dirs: true } },
  { id: 'mcp', name: 'write_file', arguments: { file_path: '.mcp.json', content: '{"mcpServers": {}}\n' } },
  { id: 'cphook', name: 'run_command', arguments: { command: 'cp notes.txt .git/hooks/post-checkout' } },
];
const PROTECTED_FILES = ['.git/hooks/pre-commit', '.git/hooks/post-checkout', '.opendev/settings.json', '.opendev/permissions.json', '.claude/settings.json', '.vscode/settings.json', '.mcp.json'];

describe('opendev -p --approval auto: the boundary', function () {
  this.timeout(120_000);
  const fake = new FakeProvider();
  let root: string;
  let ws: string;
  let remote: string;
  let canaryHome: string;
  let opendevHome: string;
  let outsideDir: string;
  let gitConfigBefore: string;

  const gitEnv = () => ({ ...process.env, HOME: canaryHome, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' });
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: gitEnv(), encoding: 'utf8' }).trim();
  const env = () => ({
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: fake.openaiBaseUrl,
    OPENDEV_HOME: opendevHome,
    HOME: canaryHome,
    GIT_CONFIG_NOSYSTEM: '1',
    OPENDEV_SESSION_TITLES: '0',
    OPENDEV_PLAYBOOK_LEARN: '0',
    OPENDEV_DISABLE_REMOTE_MODELS: '1',
  });
  const run = (flags: string[]) => opendev(['-p', 'set things up', '-C', ws, '--approval', 'auto', '--output-format', 'stream-json', ...flags], env());

  /** The approval event of one call: after its tool_call, before its tool_result. */
  const approvalOf = (events: Array<Record<string, any>>, id: string) => {
    const start = events.findIndex((e) => e.type === 'tool_call' && e.id === id);
    const end = events.findIndex((e) => e.type === 'tool_result' && e.id === id);
    assert.ok(start >= 0 && end > start, `the call ${id} ran`);
    return events.slice(start, end).find((e) => e.type === 'approval');
  };
  /** What the model read back for each call, by id (from its last request, which holds the whole conversation). */
  const readBack = () => new Map(allToolResults(fake.requests.at(-1)!).map((r) => [r.toolCallId, r.content]));

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    root = mkdtempSync(join(tmpdir(), 'opendev-boundary-'));
    ws = join(root, 'ws');
    remote = join(root, 'remote.git');
    canaryHome = join(root, 'home');
    outsideDir = mkdtempSync(join(tmpdir(), 'opendev-boundary-outside-'));
    opendevHome = newHome();
    mkdirSync(ws);
    mkdirSync(canaryHome);
    writeFileSync(join(canaryHome, '.canary'), 'untouched\n');
    git(root, 'init', '-q', '--bare', '-b', 'main', remote);
    git(ws, 'init', '-q', '-b', 'main');
    writeFileSync(join(ws, 'notes.txt'), 'notes\n');
    mkdirSync(join(ws, 'somefolder'));
    writeFileSync(join(ws, 'somefolder', 'keep.txt'), 'keep\n');
    git(ws, 'add', '.');
    git(ws, 'commit', '-q', '-m', 'first');
    git(ws, 'remote', 'add', 'origin', remote);
    git(ws, 'push', '-q', 'origin', 'main');
    // Local history diverges from the remote's, so a force push would rewrite it.
    git(ws, 'commit', '-q', '--amend', '-m', 'rewritten');
    gitConfigBefore = readFileSync(join(ws, '.git/config'), 'utf8');
  });

  it('refuses protected configuration, writes outside the workspace and caution commands, with the reason everywhere; an ordinary write goes through', async () => {
    const remoteHead = git(remote, 'rev-parse', 'main');
    fake.enqueue(
      { toolCalls: [{ id: 'read', name: 'read_file', arguments: { file_path: '.git/config' } }] },
      {
        toolCalls: [
          ...PROTECTED_WRITES,
          { id: 'outside-tool', name: 'write_file', arguments: { file_path: join(outsideDir, 'outside.txt'), content: 'x' } },
          { id: 'outside-cmd', name: 'run_command', arguments: { command: 'echo x > ../outside.txt' } },
          { id: 'push', name: 'run_command', arguments: { command: 'git push --force origin main' } },
          { id: 'rm', name: 'run_command', arguments: { command: 'rm -rf somefolder' } },
          { id: 'ordinary', name: 'write_file', arguments: { file_path: 'src/ordinary.ts', content: 'export const ok = true;\n', create_dirs: true } },
        ],
      },
      { toolCalls: [{ name: 'task_complete', arguments: { summary: 'Done what I could.', status: 'success' } }] },
    );
    const r = await run([]);
    assert.equal(r.code, 0, r.stderr);
    const events = jsonLines(r.stdout);
    const model = readBack();

    for (const { id } of PROTECTED_WRITES) {
      const approval = approvalOf(events, id!);
      assert.equal(approval?.decision, 'deny', `${id}: ${JSON.stringify(approval)}`);
      assert.equal(approval?.concern, 'protected', id);
      assert.match(approval?.reason, /^refused: .+; protected configuration is never changed in a non-interactive run, whatever the flags/, id);
      assert.match(model.get(id!)!, /^Error \(permission\): \w+ was refused: .+ A non-interactive run never approves it, whatever its flags/, id);
    }
    assert.match(approvalOf(events, 'hook')!.reason, /changes \.git\/ \(the repository's git internals/);
    assert.match(approvalOf(events, 'hookspath')!.reason, /git config core\.hooksPath \.hooks/);
    assert.match(approvalOf(events, 'settings')!.reason, /changes \.opendev\/ \(OpenDev's configuration/);
    assert.match(approvalOf(events, 'vscode')!.reason, /changes \.vscode\//);
    assert.match(approvalOf(events, 'mcp')!.reason, /changes \.mcp\.json/);
    for (const id of ['outside-tool', 'outside-cmd']) {
      const approval = approvalOf(events, id)!;
      assert.deepEqual([approval.decision, approval.concern], ['deny', 'outside-workspace'], id);
      assert.match(approval.reason, /writes outside the workspace .*pass --allow-outside-workspace to allow this/, id);
      assert.match(model.get(id)!, /was refused: writes outside the workspace .*`--approval auto` approves changes inside the workspace only/, id);
    }
    for (const id of ['push', 'rm']) {
      const approval = approvalOf(events, id)!;
      assert.deepEqual([approval.decision, approval.concern], ['deny', 'caution'], id);
      assert.match(approval.reason, /pass --allow-risky-commands to allow this/, id);
    }
    assert.match(r.stderr, /\.git\/hooks\/pre-commit.* — refused: .*never changed in a non-interactive run/);
    assert.match(r.stderr, /git push --force origin main.* — refused: .*--allow-risky-commands/);
    assert.match(r.stderr, /echo x > \.\.\/outside\.txt.* — refused: .*--allow-outside-workspace/);

    for (const file of PROTECTED_FILES) assert.equal(existsSync(join(ws, file)), false, `${file} was not written`);
    assert.equal(readFileSync(join(ws, '.git/config'), 'utf8'), gitConfigBefore, '.git/config is unchanged');
    assert.equal(existsSync(join(outsideDir, 'outside.txt')), false);
    assert.equal(existsSync(join(root, 'outside.txt')), false);
    assert.equal(git(remote, 'rev-parse', 'main'), remoteHead, 'the remote was not rewritten');
    assert.equal(existsSync(join(ws, 'somefolder', 'keep.txt')), true, 'somefolder was not deleted');
    assert.equal(approvalOf(events, 'ordinary')?.decision, undefined, 'an ordinary write needs no approval at auto');
    assert.equal(readFileSync(join(ws, 'src/ordinary.ts'), 'utf8'), 'export const ok = true;\n');
    assert.equal(readFileSync(join(canaryHome, '.canary'), 'utf8'), 'untouched\n');

    // Nothing was escalated: the next ordinary run still asks (and, headless, is refused), and git runs no new hook.
    fake.enqueue({ toolCalls: [{ id: 'touch', name: 'run_command', arguments: { command: 'touch escalated.txt' } }] }, { toolCalls: [{ name: 'task_complete', arguments: { summary: 'ok', status: 'success' } }] });
    const next = await opendev(['-p', 'touch a file', '-C', ws, '--output-format', 'stream-json'], env());
    assert.equal(next.code, 0, next.stderr);
    assert.equal(approvalOf(jsonLines(next.stdout), 'touch')?.decision, 'deny');
    assert.equal(existsSync(join(ws, 'escalated.txt')), false);
    git(ws, 'commit', '-q', '--allow-empty', '-m', 'after');
    assert.equal(existsSync(join(canaryHome, 'hook-ran')), false, 'no hook ran on commit');
  });

  it('--allow-outside-workspace lets the outside write through, and protected configuration and caution commands still need a person', async () => {
    fake.enqueue(
      { toolCalls: [{ id: 'read', name: 'read_file', arguments: { file_path: '.git/config' } }] },
      { toolCalls: [...PROTECTED_WRITES, { id: 'outside-cmd', name: 'run_command', arguments: { command: 'echo x > ../outside.txt' } }, { id: 'rm', name: 'run_command', arguments: { command: 'rm -rf somefolder' } }] },
      { toolCalls: [{ name: 'task_complete', arguments: { summary: 'ok', status: 'success' } }] },
    );
    const r = await run(['--allow-outside-workspace']);
    assert.equal(r.code, 0, r.stderr);
    const events = jsonLines(r.stdout);
    assert.deepEqual([approvalOf(events, 'outside-cmd')?.decision, approvalOf(events, 'outside-cmd')?.reason], ['allow', 'allowed by --approval auto and --allow-outside-workspace']);
    assert.equal(readFileSync(join(root, 'outside.txt'), 'utf8'), 'x\n');
    for (const { id } of PROTECTED_WRITES) assert.deepEqual([approvalOf(events, id!)?.decision, approvalOf(events, id!)?.concern], ['deny', 'protected'], id);
    assert.deepEqual([approvalOf(events, 'rm')?.decision, approvalOf(events, 'rm')?.concern], ['deny', 'caution']);
    for (const file of PROTECTED_FILES) assert.equal(existsSync(join(ws, file)), false, file);
    assert.equal(readFileSync(join(ws, '.git/config'), 'utf8'), gitConfigBefore);
    assert.equal(existsSync(join(ws, 'somefolder')), true);
  });

  it('--allow-risky-commands lets a caution command through, never a change to git config or hooks', async () => {
    fake.enqueue(
      {
        toolCalls: [
          { id: 'rm', name: 'run_command', arguments: { command: 'rm -rf somefolder' } },
          { id: 'hookspath', name: 'run_command', arguments: { command: 'git config core.hooksPath .hooks' } },
          { id: 'rmgit', name: 'run_command', arguments: { command: 'rm -rf .git/hooks' } },
          { id: 'outside-cmd', name: 'run_command', arguments: { command: 'echo x > ../outside.txt' } },
        ],
      },
      { toolCalls: [{ name: 'task_complete', arguments: { summary: 'ok', status: 'success' } }] },
    );
    const r = await run(['--allow-risky-commands']);
    assert.equal(r.code, 0, r.stderr);
    const events = jsonLines(r.stdout);
    assert.equal(approvalOf(events, 'rm')?.decision, 'allow');
    assert.equal(existsSync(join(ws, 'somefolder')), false, 'the flag let rm -rf run');
    assert.deepEqual([approvalOf(events, 'hookspath')?.decision, approvalOf(events, 'hookspath')?.concern], ['deny', 'protected']);
    assert.deepEqual([approvalOf(events, 'rmgit')?.decision, approvalOf(events, 'rmgit')?.concern], ['deny', 'protected']);
    assert.deepEqual([approvalOf(events, 'outside-cmd')?.decision, approvalOf(events, 'outside-cmd')?.concern], ['deny', 'outside-workspace']);
    assert.equal(existsSync(join(ws, '.git/hooks')), true);
    assert.equal(readFileSync(join(ws, '.git/config'), 'utf8'), gitConfigBefore);
    assert.equal(existsSync(join(root, 'outside.txt')), false);
  });

  it('the flags need -p: an interactive session asks instead', async () => {
    const r = await opendev(['-C', ws, '--allow-outside-workspace'], env());
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--allow-outside-workspace needs -p/);
  });
});
