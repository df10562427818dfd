import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { OpenDevApi } from '../../src/vscode/opendev-api';
import { lastUserText } from '../fixtures/fake-provider';
import { config, fakeProviderSuite, until } from './support';


/** The mode switch and the thinking level inside a real VS Code: commands and settings reach the agent. */
describe('modes and thinking in VS Code', () => {
  // Thinking before every step (the paper's loop, by setting), so even a greeting shows the thinking call.
  const suite = fakeProviderSuite({ thinkingCadence: 'every-step' });
  const { fake } = suite;
  let api: OpenDevApi;
  before(() => (api = suite.api));
  after(async () => {
    if (api.mode() === 'plan') await vscode.commands.executeCommand('opendev.switchMode');
  });

  it('OpenDev: Switch Mode toggles plan and normal mode, and the agent runs in the chosen mode', async () => {
    assert.equal(api.mode(), 'normal');
    await vscode.commands.executeCommand('opendev.switchMode');
    assert.equal(api.mode(), 'plan');

    fake.enqueue({ text: 'I will plan first.' });
    await api.send('look at math.ts');
    assert.match(lastUserText(fake.requests[0]!), /^look at math\.ts[\s\S]*PLAN MODE/, 'the agent got the plan-mode instructions');
    assert.equal(api.mode(), 'plan', 'the mode stays for the next message');

    await vscode.commands.executeCommand('opendev.switchMode');
    assert.equal(api.mode(), 'normal');
    fake.enqueue({ text: 'Doing it.' });
    await api.send('now do it');
    assert.doesNotMatch(lastUserText(fake.requests[1]!), /PLAN MODE/);
  });

  it('the opendev.thinkingLevel setting reaches the agent, also in the middle of a conversation', async () => {
    await config().update('thinkingLevel', 'low', vscode.ConfigurationTarget.Global);
    await until(() => api.thinkingLevel() === 'low', 'the thinking level low');
    fake.enqueue({ text: 'A greeting needs no tools.' }, { text: 'Hello!' });
    await api.send('hi');
    assert.equal(fake.requests.length, 2, 'low: a thinking call, then the action call');
    assert.equal(fake.requests[0]!.body.tools, undefined, 'the thinking call has no tools');
    assert.deepEqual(
      api.transcript().map((e) => e.kind),
      ['user', 'thinking', 'assistant'],
    );

    await config().update('thinkingLevel', 'off', vscode.ConfigurationTarget.Global);
    await until(() => api.thinkingLevel() === 'off', 'the thinking level off');
    fake.enqueue({ text: 'Bye!' });
    await api.send('bye');
    assert.equal(fake.requests.length, 3, 'off: the action call only');
    assert.match(JSON.stringify(fake.requests[2]!.body.messages), /"hi"/, 'the same agent, the same conversation');
  });

  it('opendev.roles binds the thinking step to its own model', async () => {
    await config().update('roles', { thinking: { model: 'small-thinker' } }, vscode.ConfigurationTarget.Global);
    await config().update('thinkingLevel', 'low', vscode.ConfigurationTarget.Global);
    await until(() => api.thinkingLevel() === 'low', 'the thinking level low');
    try {
      fake.enqueue({ text: 'Just greet.' }, { text: 'Hello!' });
      api.newChat();
      await api.send('hi');
      assert.deepEqual(fake.requests.map((r) => r.body.model), ['small-thinker', 'gpt-4.1']);
    } finally {
      await config().update('roles', undefined, vscode.ConfigurationTarget.Global);
      await config().update('thinkingLevel', 'off', vscode.ConfigurationTarget.Global);
    }
  });
});
