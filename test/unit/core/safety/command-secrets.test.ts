import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rulesForAlways } from '../../../../src/core/safety/always-rules';
import type { ApprovalLevel } from '../../../../src/core/config/approval-level';
import { judgeCommand } from '../../../../src/core/safety/command-judge';
import { DEFAULT_CAUTION_RULES } from '../../../../src/core/safety/default-rules';
import { compareRules, type PermissionRule } from '../../../../src/core/safety/permission-rule';
import { PermissionStore } from '../../../../src/core/safety/permission-store';
import { configureSecretLocations } from '../../../../src/core/files/secret-locations';

/** `cat ~/.ssh/id_rsa` is a "safe" read-only command, yet it hands the model a key: it asks at every level. */
describe('commands that name a secret location', () => {
  let base: string;
  let home: string;
  let ws: string;
  before(() => {
    base = mkdtempSync(join(tmpdir(), 'opendev-secret-cmd-'));
    home = join(base, 'home');
    ws = join(base, 'repo');
    mkdirSync(join(home, '.ssh'), { recursive: true });
    mkdirSync(ws);
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'KEY');
    writeFileSync(join(ws, 'README.md'), '# x');
    symlinkSync(join(home, '.ssh', 'id_rsa'), join(ws, 'notes.txt'));
  });
  after(() => {
    configureSecretLocations({ secretPaths: [] });
    rmSync(base, { recursive: true, force: true });
  });

  const LEVELS: ApprovalLevel[] = ['manual', 'semi-auto', 'auto'];
  const allowAll: PermissionRule = { id: 'allow:*', type: 'pattern', pattern: '*', action: 'allow', priority: 99, source: 'user' };
  const judge = (command: string, level: ApprovalLevel, rules: PermissionRule[] = [], readableDirs?: string[]) =>
    judgeCommand(command, { rules: [...DEFAULT_CAUTION_RULES, ...rules].sort(compareRules), level, workspaceRoot: ws, home, ...(readableDirs ? { readableDirs } : {}) });

  it('asks at every level, with the boundary reason, even when an allow rule covers the command', () => {
    for (const level of LEVELS) {
      for (const rules of [[], [allowAll]]) {
        const verdict = judge('cat ~/.ssh/id_rsa', level, rules);
        assert.equal(verdict.action, 'ask', `${level} ${rules.length ? 'with allow *' : ''}`);
        assert.equal(verdict.decidedBy, 'boundary');
        assert.equal(verdict.askAlways, true);
        assert.equal(verdict.reason, 'reads ~/.ssh/id_rsa, a secret location');
      }
    }
  });

  it('sees the forms a command can name one by: $HOME, absolute, a redirection, an option value, a glob, a variable, a link', () => {
    for (const command of [
      'cat $HOME/.ssh/id_rsa',
      'cat "${HOME}/.aws/credentials"',
      `head -5 ${join(home, '.ssh', 'id_rsa')}`,
      'wc -c < ~/.ssh/id_rsa',
      'grep --file=~/.netrc x',
      'cat ~/.ss*/id_rsa',
      'ls ~/.*/',
      'cat /proc/$PPID/environ',
      'cat /proc/self/environ',
      'tr "\\0" "\\n" < /proc/1/environ',
      'cat notes.txt',
      'cp ~/.kube/config /tmp/x',
      'cat ~/.config/Code/User/globalStorage/state.vscdb',
      'git status && cat ~/.docker/config.json',
      'less ~/.aws/credentials',
      'cp ~/.ssh/id_rsa x',
      'base64 ~/.ssh/id_ed25519',
      '< ~/.netrc',
      'cd ~/.ssh && cat id_rsa',
      'cat <<EOF > x\nEOF\ncat ~/.ssh/id_rsa',
    ]) {
      const verdict = judge(command, 'auto');
      assert.equal(verdict.action, 'ask', command);
      assert.equal(verdict.askAlways, true, command);
      assert.match(verdict.reason ?? '', /a secret location$/, command);
    }
  });

  it('"Always allow" adds nothing that would let it through next time', async () => {
    const store = PermissionStore.inMemory(ws);
    await store.remember(rulesForAlways('run_command', 'command', judge('cat ~/.ssh/id_rsa', 'semi-auto'), ws));
    assert.ok(store.rules().some((r) => r.source === 'session' && r.action === 'allow'), 'the answer was remembered');
    const again = judgeCommand('cat ~/.ssh/id_rsa', { rules: store.rules(), level: 'auto', workspaceRoot: ws, home });
    assert.equal(again.action, 'ask');
    assert.equal(again.askAlways, true);
  });

  it('leaves ordinary commands alone, and a deny rule still denies', () => {
    for (const command of ['cat README.md', 'ls -la', 'git log -5', 'cat ~/.bashrc', 'ls ~/.config', 'echo $PATH', 'cat ~/.sshd_config_notes']) {
      assert.notEqual(judge(command, 'semi-auto').decidedBy, 'boundary', command);
    }
    const denyCat: PermissionRule = { id: 'deny:cat', type: 'prefix', pattern: 'cat', action: 'deny', priority: 50, source: 'user' };
    assert.equal(judge('cat ~/.ssh/id_rsa', 'auto', [denyCat]).action, 'deny');
  });

  it("the session's scratch folder may be named although it sits in OPENDEV_HOME; the rest of OPENDEV_HOME may not", () => {
    const opendevHome = join(base, 'opendev-home');
    const scratch = join(opendevHome, 'scratch', 's1');
    mkdirSync(scratch, { recursive: true });
    const saved = process.env.OPENDEV_HOME;
    process.env.OPENDEV_HOME = opendevHome;
    try {
      assert.equal(judge(`cat ${join(scratch, 'out.txt')}`, 'semi-auto', [], [scratch]).action, 'allow');
      const settings = judge(`cat ${join(opendevHome, 'settings.json')}`, 'auto', [], [scratch]);
      assert.equal(settings.action, 'ask');
      assert.match(settings.reason ?? '', /settings\.json, a secret location/);
    } finally {
      process.env.OPENDEV_HOME = saved;
    }
  });

  it("the user's secretPaths count too", () => {
    configureSecretLocations({ secretPaths: ['~/vault'] });
    assert.equal(judge('cat ~/vault/prod.env', 'auto').reason, 'reads ~/vault/prod.env, a secret location');
    configureSecretLocations({ secretPaths: [] });
    assert.equal(judge('cat ~/vault/prod.env', 'auto').action, 'allow');
  });
});
