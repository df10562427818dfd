import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '../../../../src/core/messages';
import { INDEX_FILE } from '../../../../src/core/session/session-index';
import { SessionRecorder, type FollowedConversation } from '../../../../src/core/session/session-recorder';
import { SessionStore } from '../../../../src/core/session/session-store';

/** One session id everywhere: the saved session takes the agent's own id (its scratch folder, hooks and undo history). */
describe('saved sessions take the agent\'s session id', () => {
  let home: string;
  let project: string;
  let store: SessionStore;

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'opendev-ids-'));
    project = mkdtempSync(join(tmpdir(), 'opendev-ids-project-'));
    store = new SessionStore({ home });
  });

  function conversation(sessionId?: string): FollowedConversation & { say(text: string): void } {
    const listeners: Array<(history: readonly Message[]) => void> = [];
    const messages: Message[] = [];
    return {
      messages,
      sessionId,
      cost: () => undefined,
      observeHistory(listener: (history: readonly Message[]) => void) {
        listeners.push(listener);
        return () => void listeners.splice(listeners.indexOf(listener), 1);
      },
      say(text: string) {
        messages.push({ role: 'user', content: text });
        for (const l of listeners) l(messages);
      },
    };
  }

  it('a new conversation is saved under the id of the agent it follows', async () => {
    const agent = conversation('agent123');
    const recorder = new SessionRecorder(store, project);
    recorder.follow(agent);
    agent.say('hello');
    await recorder.settled();
    assert.equal(recorder.id, 'agent123');
    assert.deepEqual((await store.load('agent123', project))?.messages.map((m) => m.content), ['hello']);
  });

  it('an id already saved in the project (the conversation before /clear) or not an id at all gets a fresh one', async () => {
    const first = await store.create(project, '', 'taken000');
    assert.equal(first.meta.id, 'taken000');
    const second = await store.create(project, '', 'taken000');
    assert.notEqual(second.meta.id, 'taken000');
    assert.match(second.meta.id, /^[a-z0-9]{8}$/);
    assert.match((await store.create(project, '', '../../etc')).meta.id, /^[a-z0-9]{8}$/);
  });

  it('keeps the first message in the metadata and the index, for the history view\'s search', async () => {
    const record = await store.create(project);
    const long = `Please refactor the parser ${'and more '.repeat(60)}`;
    await store.sync(record, [{ role: 'user', content: long }, { role: 'assistant', content: 'Sure.', toolCalls: [] }, { role: 'user', content: 'thanks' }]);
    const dir = store.projectDir(project);
    const meta = JSON.parse(readFileSync(join(dir, `${record.meta.id}.json`), 'utf8'));
    assert.match(meta.firstPrompt, /^Please refactor the parser and more/);
    assert.ok(meta.firstPrompt.length <= 300);
    const indexed = JSON.parse(readFileSync(join(dir, INDEX_FILE), 'utf8')).sessions[0];
    assert.equal(indexed.firstPrompt, meta.firstPrompt);
    assert.equal((await store.list(project))[0]?.firstPrompt, meta.firstPrompt);
  });
});
