// /clear in the interactive CLI (the real `dist/cli.js`, piped input, against the fake provider):
// the new conversation runs on a new agent with a session id of its own, as in VS Code, so the
// saved session, the hooks' session_id and the scratch folder agree.
import * as assert from 'node:assert/strict';
import { SessionStore } from '../../../src/core/session/session-store';
import { FakeProvider } from '../../fixtures/fake-provider';
import { hookGroup, hookWorkspace, logInput, type HookWorkspace } from '../../helpers/hook-workspace';
import { trustFolder } from '../../helpers/trust-folder';
import { newHome, opendev } from './cli-harness';

describe('opendev CLI /clear', function () {
  this.timeout(60_000);
  const fake = new FakeProvider();
  let home: string;
  let ws: HookWorkspace;
  const env = () => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_HOME: home, OPENDEV_SESSION_TITLES: '0' });

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    home = newHome();
    ws = hookWorkspace();
  });

  it('starts the next conversation on a new agent: the saved session has its id, and SessionStart hears "clear" with it', async () => {
    ws.settings({ SessionStart: hookGroup(logInput), SessionEnd: hookGroup(logInput) });
    await trustFolder(home, ws.workspace); // the test's own hooks: the folder is trusted
    fake.enqueue({ text: 'First answer.' }, { text: 'Second answer.' });
    const r = await opendev(['-C', ws.workspace, '--thinking', 'off'], env(), { input: 'first question\n/clear\nsecond question\n/exit\n' });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /First answer\.[\s\S]*New conversation\. The previous conversation is saved as session [a-z0-9]+\.[\s\S]*Second answer\./);

    const sessions = await new SessionStore({ home }).list(ws.workspace);
    assert.equal(sessions.length, 2, 'two conversations, two sessions');
    const [second, first] = sessions; // newest first
    assert.notEqual(second!.id, first!.id);

    const events = ws.inputs().map((i) => `${i.hook_event_name}:${i.source ?? i.reason}:${i.session_id}`);
    assert.deepEqual(events, [
      `SessionStart:startup:${first!.id}`,
      `SessionEnd:clear:${first!.id}`,
      `SessionStart:clear:${second!.id}`,
      `SessionEnd:other:${second!.id}`,
    ]);
    const lastRequest = JSON.stringify(fake.requests.at(-1)!.body.messages);
    assert.match(lastRequest, /second question/);
    assert.doesNotMatch(lastRequest, /first question/, 'the cleared conversation is not sent');
  });
});
