// Which shell runs the model's lines (and which one's profile is read), on every platform, and what
// the approval step does when the lines go to a shell the POSIX reader cannot judge (Windows
// without Git Bash): the decision logic, since no Windows machine runs these tests.
import * as assert from 'node:assert/strict';
import { chooseCommandShell, commandArgs } from '../../../../src/core/process/command-shell';
import { judgeCall, type CallFacts } from '../../../../src/core/safety/call-judge';
import { compareRules, ruleFromEntry } from '../../../../src/core/safety/permission-rule';
import type { JudgeContext } from '../../../../src/core/safety/judgement';

const present = (...paths: string[]) => (p: string) => paths.includes(p);

describe('choosing the command shell', () => {
  it('POSIX: bash and zsh run the commands themselves and their profile is read', () => {
    for (const shell of ['/bin/bash', '/usr/bin/zsh', '/bin/dash']) {
      const c = chooseCommandShell({ platform: 'linux', userShell: shell, exists: present(shell, '/bin/bash') });
      assert.deepEqual([c.file, c.family, c.profileShell], [shell, 'posix', shell]);
    }
  });

  it('fish: commands run in bash (the model writes POSIX), with the environment fish\'s profile sets up', () => {
    const c = chooseCommandShell({ platform: 'darwin', userShell: '/opt/homebrew/bin/fish', exists: present('/opt/homebrew/bin/fish', '/bin/bash') });
    assert.deepEqual([c.file, c.family, c.profileShell], ['/bin/bash', 'posix', '/opt/homebrew/bin/fish']);
    assert.match(c.why, /your shell is fish, but the model writes POSIX shell/);
  });

  it('nushell, PowerShell on Linux: bash runs the commands and bash\'s profile is read', () => {
    for (const shell of ['/usr/bin/nu', '/usr/bin/pwsh']) {
      const c = chooseCommandShell({ platform: 'linux', userShell: shell, exists: present(shell, '/usr/bin/bash') });
      assert.deepEqual([c.file, c.family, c.profileShell], ['/usr/bin/bash', 'posix', '/usr/bin/bash']);
    }
  });

  it('no $SHELL, or one that is not there: bash, else sh', () => {
    assert.equal(chooseCommandShell({ platform: 'linux', exists: present('/bin/bash') }).file, '/bin/bash');
    const c = chooseCommandShell({ platform: 'linux', userShell: '/gone/zsh', exists: present() });
    assert.deepEqual([c.file, c.profileShell], ['/bin/sh', '/bin/sh']);
  });

  it('Windows with Git Bash: it runs the commands (judged as written); no profile is read', () => {
    const bash = 'C:\\Program Files\\Git\\bin\\bash.exe';
    const c = chooseCommandShell({ platform: 'win32', userShell: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe', exists: present(bash), env: { ProgramFiles: 'C:\\Program Files' } });
    assert.deepEqual([c.file, c.family, c.profileShell], [bash, 'posix', undefined]);
  });

  it('Windows without bash: PowerShell when it is the user\'s profile, else cmd.exe, and neither is judgeable', () => {
    const ps = chooseCommandShell({ platform: 'win32', userShell: 'pwsh.exe', exists: present(), env: {} });
    assert.equal(ps.family, 'powershell');
    assert.deepEqual(commandArgs(ps, 'dir'), ['-NoLogo', '-NonInteractive', '-Command', 'dir']);
    const cmd = chooseCommandShell({ platform: 'win32', exists: present(), env: { ComSpec: 'C:\\Windows\\system32\\cmd.exe' } });
    assert.deepEqual([cmd.file, cmd.family], ['C:\\Windows\\system32\\cmd.exe', 'cmd']);
    assert.deepEqual(commandArgs(cmd, 'dir'), ['/d', '/s', '/c', 'dir']);
    assert.match(cmd.why, /each one asks you first/);
  });
});

describe('judging commands for a shell the reader cannot read', () => {
  const call = (command: string): CallFacts => ({ tool: 'run_command', subject: { kind: 'command', command, sandbox: true, withCommand: (c) => ({ command: c }) }, args: { command }, autoApproveEdits: false });
  const allowAll = [ruleFromEntry({ type: 'prefix', action: 'allow', pattern: 'dir' }, 'user')].sort(compareRules);
  const ctx = (extra: Partial<JudgeContext> = {}): JudgeContext => ({ rules: [], level: 'auto', workspaceRoot: '/ws', ...extra });

  it('asks for every command, even at Auto and under an allow rule', () => {
    assert.equal(judgeCall(call('dir'), ctx()).action, 'allow', 'the same line is allowed at Auto in bash');
    const j = judgeCall(call('dir'), ctx({ foreignShell: 'cmd.exe', rules: allowAll }));
    assert.equal(j.action, 'ask');
    assert.equal(j.askAlways, true);
    assert.match(j.reason ?? '', /runs in cmd\.exe, whose command lines OpenDev cannot judge/);
  });

  it('the danger rules still refuse what they recognise', () => {
    assert.equal(judgeCall(call('rm -rf /'), ctx({ foreignShell: 'powershell.exe' })).action, 'deny');
  });
});
