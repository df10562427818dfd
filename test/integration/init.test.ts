import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { OpenDevApi } from '../../src/vscode/opendev-api';
import { FakeProvider, type RecordedRequest, type ScriptedTurn } from '../fixtures/fake-provider';
import { activateOpenDev, clearSettings, until, useSettings } from './support';

const WRITTEN = '# OPENDEV.md\n\n## Overview\nA math helper used by the integration tests.\n';
const OLD = '# Our notes\nKeep these exactly.\n';

/**
 * OpenDev: Initialize Project (OPENDEV.md) from the palette, in a real VS Code: it is /init in the
 * chat, so the main agent hands the work to the Project-Init subagent (a card in the chat) and an
 * existing OPENDEV.md is only touched after the user says so in a question card.
 */
describe('Project init (OpenDev: Initialize Project)', function () {
  this.timeout(120_000);
  const fake = new FakeProvider();
  let api: OpenDevApi;
  let file: string;
  let subagentSteps: ScriptedTurn[];
  const isSubagent = (req: RecordedRequest) => JSON.stringify(req.body.messages?.[0] ?? '').includes('You are Project-Init');
  const actionCalls = () => fake.requests.filter((r) => (r.body.tools ?? []).length > 0);

  before(async () => {
    await fake.start();
    api = await activateOpenDev();
    file = join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'OPENDEV.md');
    await useSettings({ provider: 'openai', baseUrl: fake.openaiBaseUrl, thinkingLevel: 'off', approvalLevel: 'auto' });
    await vscode.commands.executeCommand('opendev.setApiKey', 'openai', 'sk-integration');
  });
  after(async () => {
    api.newChat();
    rmSync(file, { force: true });
    await clearSettings(['provider', 'baseUrl', 'thinkingLevel', 'approvalLevel']);
    await fake.stop();
  });
  beforeEach(() => {
    fake.reset();
    api.newChat();
    rmSync(file, { force: true });
    subagentSteps = [];
    // The main model does what /init's prompt says: it passes the quoted task to Project-Init, then reports.
    fake.setResponder((req) => {
      if ((req.body.tools ?? []).length === 0) return { text: '{}' };
      if (isSubagent(req)) return subagentSteps.shift() ?? { text: 'Done.' };
      if (!JSON.stringify(req.body.messages).includes('"role":"tool"')) {
        const prompt = JSON.stringify(req.body.messages.at(-1).content);
        const task = /\\"(Analyse this repository[^"\\]*)\\"/.exec(prompt)?.[1] ?? 'missing task';
        return { toolCalls: [{ name: 'spawn_subagent', arguments: { subagent_type: 'Project-Init', task } }] };
      }
      return { text: 'OPENDEV.md now describes the project.' };
    });
  });

  it('writes OPENDEV.md in the workspace through the Project-Init subagent, shown as a card in the chat', async () => {
    subagentSteps = [
      { toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { file_path: 'OPENDEV.md', content: WRITTEN } }] },
      { toolCalls: [{ name: 'task_complete', arguments: { summary: 'Wrote OPENDEV.md.', status: 'success' } }] },
    ];
    await vscode.commands.executeCommand('opendev.init'); // resolves when the turn is over
    assert.equal(readFileSync(file, 'utf8'), WRITTEN);
    const card = api.transcript().find((e) => e.kind === 'subagent');
    assert.equal(card?.kind === 'subagent' && card.type, 'Project-Init');
    assert.equal(card?.kind === 'subagent' && card.status, 'completed');
    assert.ok(api.transcript().some((e) => e.kind === 'assistant' && e.text.includes('OPENDEV.md now describes the project.')));
    assert.ok(actionCalls().some((r) => isSubagent(r) && JSON.stringify(r.body.messages).includes('There is no OPENDEV.md yet.')));
  });

  it('asks in the chat before replacing an existing OPENDEV.md; "Keep it" leaves it byte-identical', async () => {
    writeFileSync(file, OLD);
    const running = vscode.commands.executeCommand('opendev.init');
    await until(() => api.transcript().some((e) => e.kind === 'question' && e.state === 'pending'), 'the question card');
    const card = api.transcript().find((e) => e.kind === 'question')!;
    assert.ok(card.kind === 'question');
    assert.match(card.questions[0]!.question, /OPENDEV\.md already exists/);
    assert.deepEqual(card.questions[0]!.options.map((o) => o.label), ['Rewrite it', 'Keep it']);
    assert.deepEqual(api.answer({ type: 'answerQuestions', id: card.id, answers: { answers: [{ header: 'OPENDEV.md', selected: ['Keep it'] }] } }), { ok: true });
    await running;
    assert.equal(readFileSync(file, 'utf8'), OLD);
    assert.equal(actionCalls().length, 0, 'no model was asked to do anything');
    assert.ok(api.transcript().some((e) => e.kind === 'notice' && e.text.includes('OPENDEV.md was left as it is.')));
  });

  it('"Rewrite it" lets Project-Init update the existing file', async () => {
    writeFileSync(file, OLD);
    subagentSteps = [
      { toolCalls: [{ name: 'read_file', arguments: { file_path: 'OPENDEV.md' } }] },
      { toolCalls: [{ name: 'edit_file', arguments: { file_path: 'OPENDEV.md', old_content: 'Keep these exactly.\n', new_content: 'Keep these exactly.\nTests: npm test.\n' } }] },
      { toolCalls: [{ name: 'task_complete', arguments: { summary: 'Updated.', status: 'success' } }] },
    ];
    const running = vscode.commands.executeCommand('opendev.init');
    await until(() => api.transcript().some((e) => e.kind === 'question' && e.state === 'pending'), 'the question card');
    const card = api.transcript().find((e) => e.kind === 'question')!;
    api.answer({ type: 'answerQuestions', id: card.id, answers: { answers: [{ header: 'OPENDEV.md', selected: ['Rewrite it'] }] } });
    await running;
    assert.equal(readFileSync(file, 'utf8'), `${OLD}Tests: npm test.\n`);
    assert.ok(actionCalls().some((r) => isSubagent(r) && JSON.stringify(r.body.messages).includes('the user agreed to have it rewritten')));
    assert.equal(existsSync(file), true);
  });
});
