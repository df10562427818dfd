import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSlashCommands, type CommandAgent } from '../../../../src/core/commands/slash-commands';
import { loadLayeredSettings, projectSettingsFile } from '../../../../src/core/config/layered-settings';
import { formatSettingsProblem } from '../../../../src/core/config/settings-problem';
import { maskUrl, settingsReport } from '../../../../src/core/config/settings-report';

describe('/config', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-config-cmd-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const agent = { running: false } as unknown as CommandAgent;

  it('prints every effective setting with the layer it came from, and never a secret', async () => {
    const home = join(root, 'home');
    const ws = join(root, 'ws');
    mkdirSync(join(ws, '.opendev'), { recursive: true });
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ thinkingLevel: 'high', apiKey: 'sk-in-a-file', roles: { compact: { model: 'mini' } } }));
    writeFileSync(projectSettingsFile(ws), JSON.stringify({ model: 'project-model', approvalLevel: 'auto', colour: 'blue' }));
    const layered = loadLayeredSettings({
      env: { OPENDEV_PROVIDER: 'openai', OPENAI_BASE_URL: 'https://me:hunter2@proxy.example.com/v1?token=abc' },
      home,
      workspaceRoot: ws,
      projectTrusted: true,
      flags: { kind: 'flags', label: 'flags', values: { maxIterations: 7 }, origins: { maxIterations: '--max-iterations' } },
    });
    const problems = layered.problems.map((p) => formatSettingsProblem(p, { apiKeyHint: 'Set OPENAI_API_KEY instead.' }));
    const report = settingsReport(layered.effective, {
      order: ['defaults', 'environment', 'user', 'project', 'command-line flags'],
      apiKey: { set: true, source: 'environment (OPENAI_API_KEY)' },
      problems,
    });
    const commands = createSlashCommands({ settings: () => report });
    const result = await commands.run('/config', { agent, front: 'cli' });
    assert.equal(result.error, undefined);
    const out = result.output;
    const row = (key: string) => out.split('\n').find((l) => l.trimStart().startsWith(`${key} `)) ?? '';
    assert.match(out, /^Settings \(each layer overrides the ones before it: defaults < environment < user < project < command-line flags\):/);
    assert.match(row('provider'), /openai\s+environment \(OPENDEV_PROVIDER\)/);
    assert.match(row('model'), new RegExp(`project-model\\s+project \\(${projectSettingsFile(ws)}\\)`));
    assert.match(row('apiKey'), /set\s+environment \(OPENAI_API_KEY\)/);
    assert.match(row('baseUrl'), /https:\/\/\*\*\*@proxy\.example\.com\/v1\?…\s+environment \(OPENAI_BASE_URL\)/);
    assert.match(row('thinkingLevel'), new RegExp(`high\\s+user \\(${join(home, 'settings.json')}\\)`));
    assert.match(row('approvalLevel'), /auto\s+project/);
    assert.match(row('playbook.learn'), /true\s+default$/);
    assert.match(row('maxIterations'), /7\s+flag --max-iterations/);
    assert.match(row('roles.compact'), /mini\s+user/);
    assert.match(row('roles.critique'), /\(not set: falls back/);
    assert.match(row('contextWindow'), /\(not set: from the model catalogue\)/);
    assert.match(out, /Problems:\n {2}.*"apiKey" looks like an API key and is ignored/);
    assert.match(out, /unknown setting "colour" is ignored/);
    for (const secret of ['sk-in-a-file', 'hunter2', 'token=abc']) assert.ok(!out.includes(secret), `${secret} must not be printed`);
  });

  it('runs while the agent works, and says so where a host gives no settings', async () => {
    const commands = createSlashCommands();
    assert.equal(commands.get('config')?.whileRunning, true);
    const result = await commands.run('/config', { agent, front: 'vscode' });
    assert.equal(result.error, 'unavailable');
  });

  it('masks credentials in URLs and leaves plain ones alone', () => {
    assert.equal(maskUrl('http://127.0.0.1:11434/v1'), 'http://127.0.0.1:11434/v1');
    assert.equal(maskUrl('https://u:p@h.example/x?key=1'), 'https://***@h.example/x?…');
  });
});
