// The sandbox's parts that need no sandbox: the policy built from the trust boundary, what a
// command's output says was blocked, how the judge asks less inside the sandbox (and never less
// outside it), the fallback when no sandbox can run, and "always allow" saved in settings.json.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandSandbox, type SandboxRuntimePort } from '../../../../src/core/sandbox/command-sandbox';
import { rememberSandboxHost } from '../../../../src/core/sandbox/remember-host';
import { originHost, sandboxPolicy, TOOL_CACHES } from '../../../../src/core/sandbox/sandbox-policy';
import { sandboxNotice, describeSandbox } from '../../../../src/core/sandbox/sandbox-notice';
import { DEFAULT_NETWORK_ALLOW, DEFAULT_SANDBOX_SETTINGS } from '../../../../src/core/config/sandbox-settings';
import { blockedConnectionsOf } from '../../../../src/core/sandbox/sandbox-runtime';
import { violationsOf } from '../../../../src/core/sandbox/sandbox-violations';
import { judgeCall, type CallFacts } from '../../../../src/core/safety/call-judge';
import { runCommandTool } from '../../../../src/core/tools/run-command';
import type { ToolExecutionContext } from '../../../../src/core/tools/tool';
import { DEFAULT_CAUTION_RULES } from '../../../../src/core/safety/default-rules';
import { mustAskOf } from '../../../../src/core/safety/must-ask';
import { rulesForAlways } from '../../../../src/core/safety/always-rules';
import { compareRules, ruleFromEntry } from '../../../../src/core/safety/permission-rule';

const temp = (name: string) => mkdtempSync(join(tmpdir(), `opendev-sbx-${name}-`));

describe('sandbox policy', () => {
  it('writable: workspace, the private temp folder, the caches that exist and the user\'s additions; protected paths that exist stay read-only', () => {
    const home = temp('home');
    const ws = temp('ws');
    mkdirSync(join(home, '.npm'));
    mkdirSync(join(ws, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(ws, '.git', 'config'), '');
    mkdirSync(join(ws, '.vscode'));
    const policy = sandboxPolicy({ settings: { ...DEFAULT_SANDBOX_SETTINGS, writeAllow: ['~/data', '/opt/cache'] }, workspaceRoot: ws, home, tempDir: '/tmp/t', secretRoots: [join(home, '.ssh')] });
    assert.deepEqual(policy.writable, [ws, '/tmp/t', join(home, '.npm'), join(home, 'data'), '/opt/cache']);
    assert.ok(TOOL_CACHES.includes('.npm'));
    assert.deepEqual(policy.readOnly, [join(ws, '.git', 'hooks'), join(ws, '.git', 'config'), join(ws, '.vscode')], 'a protected path that does not exist gets no placeholder (git add -A would fail on it)');
    assert.deepEqual(policy.unreadable, [join(home, '.ssh')]);
    assert.deepEqual(policy.network, DEFAULT_NETWORK_ALLOW);
  });

  it('without a repository, .git as a whole is read-only (no hooks planted for a later commit)', () => {
    const ws = temp('ws');
    const policy = sandboxPolicy({ settings: DEFAULT_SANDBOX_SETTINGS, workspaceRoot: ws, home: temp('home'), tempDir: '/tmp/t', secretRoots: [] });
    assert.deepEqual(policy.readOnly, [join(ws, '.git')]);
  });

  it('a repository without a hooks folder gets an empty one, read-only, so no command can plant a hook there', () => {
    const ws = temp('ws');
    mkdirSync(join(ws, '.git'));
    writeFileSync(join(ws, '.git', 'config'), '');
    const policy = sandboxPolicy({ settings: DEFAULT_SANDBOX_SETTINGS, workspaceRoot: ws, home: temp('home'), tempDir: '/tmp/t', secretRoots: [] });
    assert.deepEqual(policy.readOnly, [join(ws, '.git', 'hooks'), join(ws, '.git', 'config')]);
    assert.deepEqual(readdirSync(join(ws, '.git', 'hooks')), []);
  });

  it('hosts: the settings, those allowed this session, and the origin remote of a trusted folder', () => {
    const ws = temp('ws');
    mkdirSync(join(ws, '.git'));
    writeFileSync(join(ws, '.git', 'config'), '[core]\n\tbare = false\n[remote "origin"]\n\turl = git@git.example.org:team/app.git\n');
    assert.equal(originHost(ws), 'git.example.org');
    writeFileSync(join(ws, '.git', 'config'), '[remote "origin"]\n\turl = https://user@code.example.com/team/app.git\n');
    assert.equal(originHost(ws), 'code.example.com');
    writeFileSync(join(ws, '.git', 'config'), '[remote "upstream"]\n\turl = https://x.example.com/a.git\n');
    assert.equal(originHost(ws), undefined, 'only origin');
    const policy = sandboxPolicy({ settings: { ...DEFAULT_SANDBOX_SETTINGS, networkAllow: ['a.example'] }, workspaceRoot: ws, home: temp('h'), tempDir: '/t', secretRoots: [], sessionHosts: ['b.example'], gitHost: 'c.example' });
    assert.deepEqual(policy.network, ['a.example', 'b.example', 'c.example']);
  });
});

describe('what the sandbox blocked, from the output', () => {
  const ws = '/work/ws';
  const policy = { writable: [ws, '/tmp/s'], readOnly: [`${ws}/.git/hooks`, `${ws}/.vscode`], unreadable: ['/home/u/.ssh'], readable: [], network: [] };
  const of = (output: string, blocked: Array<{ host: string; port: number }> = []) => violationsOf(output, { policy, cwd: ws, home: '/home/u', blocked });

  it('names blocked writes as programs report them (bash, cp, touch, mkdir, python, node), and says which are protected', () => {
    const found = of(
      [
        "/bin/bash: line 1: /home/u/.bashrc: Read-only file system",
        "cp: cannot create regular file '/etc/hosts': Read-only file system",
        "touch: cannot touch '/home/u/x': Read-only file system",
        'mkdir: cannot create directory ‘/opt/y’: Read-only file system',
        "OSError: [Errno 30] Read-only file system: '/home/u/z'",
        "Error: EROFS: read-only file system, open '/home/u/n.json'",
        'bash: line 1: .git/hooks/pre-commit: Read-only file system',
        'bash: line 1: .vscode/tasks.json: Not a directory',
        'echo: write error: Read-only file system',
      ].join('\n'),
    );
    assert.deepEqual(found.map((v) => `${v.kind} ${v.target}`), [
      'write /home/u/.bashrc',
      'write /etc/hosts',
      'write /home/u/x',
      'write /opt/y',
      'write /home/u/z',
      'write /home/u/n.json',
      `write ${ws}/.git/hooks/pre-commit`,
      `write ${ws}/.vscode/tasks.json`,
    ]);
    assert.match(found[6]!.why, /protected configuration \(\.git\/hooks\)/);
  });

  it('a hidden secret reads as "no such file": reported as a read of a secret location; ordinary missing files are not', () => {
    const found = of("cat: /home/u/.ssh/id_rsa: No such file or directory\ncat: notes.txt: No such file or directory");
    assert.deepEqual(found.map((v) => `${v.kind} ${v.target}`), ['read /home/u/.ssh/id_rsa']);
  });

  it('refused connections come from the proxy\'s lines, once per host and port', () => {
    const blocked = blockedConnectionsOf(['deny network-outbound evil.example:443 (x)', 'deny network-outbound evil.example:443 (x)', 'deny network-outbound [::1]:8080 (y)']);
    assert.deepEqual(blocked, [{ host: 'evil.example', port: 443 }, { host: '[::1]', port: 8080 }]);
    assert.deepEqual(of('', blocked).map((v) => v.target), ['evil.example:443', '[::1]:8080']);
  });

  it('reads a long output only as far as its first 4,000 lines (the model sees its head and tail anyway)', () => {
    const blocked = (path: string) => `cp: cannot create regular file '${path}': Read-only file system\n`;
    const big = blocked('/x').repeat(3_999) + blocked('/y') + blocked('/z').repeat(200_000);
    assert.deepEqual(of(big).map((v) => v.target), ['/x', '/y']);
  });
});

describe('the judge inside and outside the sandbox', () => {
  const ws = '/work/ws';
  /** A run_command call as the approval gate judges it: about what the tool says it is about. */
  const commandCall = (args: Record<string, unknown>): CallFacts => {
    const subject = runCommandTool.approval!(args as { command: string }, {} as ToolExecutionContext) as CallFacts['subject'];
    return { tool: 'run_command', subject, args, autoApproveEdits: false };
  };
  const judge = (command: string, level: 'manual' | 'semi-auto' | 'auto', sandboxed: boolean, extra: Record<string, unknown> = {}) =>
    judgeCall(commandCall({ command, ...extra }), { rules: DEFAULT_CAUTION_RULES, level, workspaceRoot: ws, home: '/home/u', sandboxed });

  it('semi-auto in the sandbox runs what it used to ask about: builds, writes in the workspace, pipes, unknown programs', () => {
    for (const command of ['npm install', 'npm run build && npm test', 'echo x > notes.txt', 'python3 -c "print(1)"', 'make -j2', 'curl -sSL https://registry.npmjs.org/ | head']) {
      assert.equal(judge(command, 'semi-auto', false).action, 'ask', `${command} asks without a sandbox`);
      assert.equal(judge(command, 'semi-auto', true).action, 'allow', `${command} runs in the sandbox`);
    }
  });

  it('in the sandbox the caution rules and protected configuration still ask, the danger rules still refuse, and manual keeps asking', () => {
    assert.equal(judge('git push --force origin main', 'semi-auto', true).action, 'ask');
    assert.equal(judge('git reset --hard HEAD~3', 'auto', true).action, 'ask');
    assert.equal(judge('rm -rf .git', 'auto', true).action, 'ask');
    assert.equal(judge('rm -rf ~', 'auto', true).action, 'deny');
    assert.equal(judge('ls', 'manual', true).action, 'ask');
  });

  it('sandbox: false asks at every level, as a concern no blanket approval covers', () => {
    for (const level of ['semi-auto', 'auto'] as const) {
      const j = judge('ls', level, true, { sandbox: false });
      assert.equal(j.action, 'ask');
      assert.equal(mustAskOf(j)?.kind, 'unsandboxed');
    }
    assert.equal(judge('rm -rf /', 'auto', true, { sandbox: false }).action, 'deny');
  });

  it('a server, which runs outside the sandbox, asks at every level; "Always allow" remembers that exact command', () => {
    const server = (command: string, level: 'semi-auto' | 'auto', rules = DEFAULT_CAUTION_RULES) =>
      judgeCall(commandCall({ command }), { rules, level, workspaceRoot: ws, home: '/home/u', outsideSandbox: 'it starts a server (npm start)' });
    for (const level of ['semi-auto', 'auto'] as const) {
      const j = server('npm start', level);
      assert.equal(j.action, 'ask', `npm start at ${level}: its script could do anything`);
      assert.equal(mustAskOf(j)?.kind, 'unsandboxed');
      assert.match(j.reason ?? '', /starts a server \(npm start\), so it runs outside the sandbox/);
    }
    const [always] = rulesForAlways('run_command', 'command', server('npm start', 'auto'), ws);
    assert.deepEqual({ type: always?.type, pattern: always?.pattern }, { type: 'command', pattern: 'npm start' });
    const rules = [...DEFAULT_CAUTION_RULES, ruleFromEntry(always!, 'user')].sort(compareRules);
    assert.equal(server('npm start', 'auto', rules).action, 'allow');
    assert.equal(server('npm start -- --port 1', 'auto', rules).action, 'ask', 'only that exact command');
    assert.equal(server('flask run; rm -rf ~', 'auto').action, 'deny');
  });

  it('without a sandbox, a program named at run time is a hidden command that asks even at auto', () => {
    for (const command of ['$CMD -rf ~', '$(echo rm) -rf ~']) {
      const j = judge(command, 'auto', false);
      assert.equal(j.action, 'ask', command);
      assert.match(j.reason ?? '', /named at run time/);
    }
    assert.equal(judge('$CMD -rf ~', 'auto', true).action, 'allow', 'in the sandbox it is contained');
  });
});

describe('where no sandbox can run', () => {
  const unavailable: SandboxRuntimePort = {
    availability: async () => ({ available: false, reason: 'bubblewrap (bwrap) not installed', fix: 'sudo apt-get install bubblewrap socat' }),
    wrap: async () => {
      throw new Error('must not be called');
    },
    violationLines: () => [],
    release: () => undefined,
  };

  it('commands are not wrapped, the status says why with the one-line fix, and the notice never goes quiet about it', async () => {
    const sandbox = new CommandSandbox({ settings: DEFAULT_SANDBOX_SETTINGS, workspaceRoot: temp('ws'), runtime: unavailable });
    assert.equal(await sandbox.wrap('ls', '/'), undefined);
    const status = await sandbox.status();
    assert.equal(status.state, 'unavailable');
    const notice = sandboxNotice(status)!;
    assert.equal(notice.level, 'warning');
    assert.match(notice.text, /unsandboxed.*bubblewrap.*apt-get install bubblewrap socat/s);
    assert.match(describeSandbox(status, { violations: [], sessionHosts: [] }), /unavailable/);
  });

  it('turned off by the user: not even looked for; /sandbox (and /config, the status bar) say so, no warning each session', async () => {
    const sandbox = new CommandSandbox({ settings: { ...DEFAULT_SANDBOX_SETTINGS, enabled: false }, workspaceRoot: temp('ws'), runtime: unavailable });
    const status = await sandbox.status();
    assert.equal(status.state, 'off');
    assert.equal(sandboxNotice(status), undefined);
    assert.match(describeSandbox(status, { violations: [], sessionHosts: [] }), /off \(sandbox.enabled is false\)/);
  });
});

describe('"always allow" a host (CLI)', () => {
  it('adds it to sandbox.network.allow of settings.json, after the built-in list when there was none, keeping every other key', async () => {
    const file = join(temp('home'), 'settings.json');
    writeFileSync(file, JSON.stringify({ model: 'm', sandbox: { mcp: false } }));
    await rememberSandboxHost(file, 'api.example.com');
    await rememberSandboxHost(file, 'api.example.com');
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(saved.model, 'm');
    assert.equal(saved.sandbox.mcp, false);
    assert.deepEqual(saved.sandbox.network.allow, [...DEFAULT_NETWORK_ALLOW, 'api.example.com']);
  });

  it('leaves a broken file alone and says why', async () => {
    const file = join(temp('home'), 'settings.json');
    writeFileSync(file, '{ not json');
    await assert.rejects(rememberSandboxHost(file, 'a.example'), /cannot be changed/);
    assert.equal(readFileSync(file, 'utf8'), '{ not json');
  });
});
