import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { OpenDevApi } from '../../src/vscode/opendev-api';
import { FakeProvider, toolResults, type RecordedRequest } from '../fixtures/fake-provider';
import { activateOpenDev, clearSettings, until, useSettings } from './support';

const systemOf = (req: RecordedRequest) => String(req.body.messages.find((m: { role: string }) => m.role === 'system')?.content ?? '');

/**
 * Skills inside a real VS Code: a skill in the opened folder's `.opendev/skills/` is listed by
 * /skills in the chat and in the OpenDev Agent terminal, indexed in the system prompt, and loaded by
 * a scripted invoke_skill call. The model is the fake provider behind the real openai SDK.
 */
describe('Skills in VS Code', function () {
  this.timeout(90_000);
  const fake = new FakeProvider();
  let api: OpenDevApi;
  let skillsDir: string;
  const BODY = 'List user-visible changes under "Added", "Fixed" and "Changed"; see template.md.';

  before(async () => {
    await fake.start();
    api = await activateOpenDev();
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    skillsDir = join(folder, '.opendev', 'skills');
    mkdirSync(join(skillsDir, 'release-notes'), { recursive: true });
    writeFileSync(join(skillsDir, 'release-notes', 'SKILL.md'), `---\nname: release-notes\ndescription: Use when writing release notes for this project.\n---\n# Release notes\n${BODY}\n`);
    writeFileSync(join(skillsDir, 'release-notes', 'template.md'), '## Added\n## Fixed\n## Changed\n');
    await useSettings({ provider: 'openai', baseUrl: fake.openaiBaseUrl, thinkingLevel: 'off' });
    await vscode.commands.executeCommand('opendev.setApiKey', 'openai', 'sk-integration');
  });
  after(async () => {
    rmSync(join(skillsDir, 'release-notes'), { recursive: true, force: true });
    await clearSettings(['provider', 'baseUrl', 'thinkingLevel']);
    await fake.stop();
  });
  beforeEach(() => {
    fake.reset();
    // A new chat builds a new agent, which reads the skill folders again.
    api.newChat();
  });

  const commandOutput = (command: string) => {
    const entry = api.transcript().filter((e) => e.kind === 'notice' && e.command === command).at(-1);
    return entry?.kind === 'notice' ? entry.text : '';
  };

  it('/skills in the chat lists the workspace skill with the builtin ones, without the model', async () => {
    await api.send('/skills');
    const output = commandOutput('/skills');
    assert.match(output, /^ {2}release-notes +project +Use when writing release notes for this project\.$/m);
    assert.match(output, /^ {2}git-conventions +builtin /m);
    await api.send('/skills release-notes');
    assert.ok(commandOutput('/skills release-notes').includes(`Folder: ${join(skillsDir, 'release-notes')}`), commandOutput('/skills release-notes'));
    assert.equal(fake.requests.length, 0);
  });

  it('a turn that calls invoke_skill gets the body; the prompt had only the index; /skills marks it loaded', async () => {
    fake.enqueue({ toolCalls: [{ name: 'invoke_skill', arguments: { skill_name: 'release-notes' } }] }, { text: 'Release notes drafted.' });
    const result = await api.send('write the release notes');
    assert.equal(result?.status, 'completed');

    const first = fake.requests[0]!;
    assert.match(systemOf(first), /- release-notes: Use when writing release notes for this project\./);
    assert.ok(!JSON.stringify(first.body).includes(BODY.slice(0, 40)), 'no body up front');
    const [loaded] = toolResults(fake.requests[1]!);
    assert.ok(loaded!.content.includes(BODY), loaded!.content);
    assert.match(loaded!.content, /\(template\.md\)/);
    const card = api.transcript().find((e) => e.kind === 'tool' && e.name === 'invoke_skill');
    assert.equal(card?.kind === 'tool' && card.status, 'ok');

    await api.send('/skills');
    assert.match(commandOutput('/skills'), /^● release-notes +project /m);
  });

  it('/skills in the OpenDev Agent terminal lists it too', async () => {
    const id = await vscode.commands.executeCommand<string | undefined>('opendev.openTerminal');
    assert.ok(id);
    try {
      await until(() => /› $/.test(api.agentTerminals.screen(id)), 'the prompt');
      for (const key of '/skills\r') api.agentTerminals.input(id, key);
      await until(() => /release-notes +project +Use when writing release notes/.test(api.agentTerminals.screen(id)), 'the skills list').catch((err) => {
        throw new Error(`${(err as Error).message}; the terminal shows:\n${api.agentTerminals.screen(id)}`);
      });
    } finally {
      api.agentTerminals.terminal(id)?.dispose();
      await api.agentTerminals.closed(id);
    }
  });
});
