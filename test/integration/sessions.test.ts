import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { OpenDevApi } from '../../src/vscode/opendev-api';
import { SessionStore } from '../../src/core/session/session-store';
import { fakeProviderSuite } from './support';

/**
 * Sessions in a real VS Code: the chat is saved under OPENDEV_HOME/projects/ like the CLI's
 * sessions, New Chat starts another, and "Show Sessions" resumes one into the chat.
 */
describe('sessions in VS Code', () => {
  const suite = fakeProviderSuite({}, { eachTest: true });
  const { fake } = suite;
  let api: OpenDevApi;
  const folder = () => suite.folder;
  before(() => (api = suite.api));

  it('saves the chat as a session of the workspace folder, and Show Sessions resumes it after New Chat', async () => {
    fake.enqueue({ text: 'Noted: the release is on Friday.' });
    await api.send('Remember: the release is on Friday.');
    await api.sessionsSettled();
    const id = api.sessionId();
    assert.match(id ?? '', /^[a-z0-9]{8}$/);
    const store = new SessionStore();
    const saved = await store.load(id!, folder());
    assert.deepEqual(saved?.messages.map((m) => m.content), ['Remember: the release is on Friday.', 'Noted: the release is on Friday.']);
    assert.equal(saved?.record.meta.title, 'Remember: the release is on Friday.', 'OPENDEV_SESSION_TITLES=0 in the test run: the first-line title');

    api.newChat();
    await vscode.commands.executeCommand('opendev.showSessions', id);
    const notice = api.transcript()[0];
    assert.match(notice?.kind === 'notice' ? notice.text : '', new RegExp(`Resumed session ${id}`));
    fake.enqueue({ text: 'On Friday.' });
    await api.send('When is the release?');
    assert.match(JSON.stringify(fake.requests[0]!.body.messages), /the release is on Friday/);
    await api.sessionsSettled();
    assert.equal(api.sessionId(), id);
    assert.equal((await store.load(id!, folder()))?.messages.length, 4);
  });
});
