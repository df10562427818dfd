// Hooks through the real CLI (`dist/cli.js` in a child process, against the fake provider).
import * as assert from 'node:assert/strict';
import { FakeProvider } from '../../fixtures/fake-provider';
import { hookGroup, hookWorkspace, logInput, type HookWorkspace } from '../../helpers/hook-workspace';
import { trustFolder } from '../../helpers/trust-folder';
import { newHome, opendev } from './cli-harness';

describe('opendev CLI with hooks', function () {
  this.timeout(60_000);
  const fake = new FakeProvider();
  let home: string;
  let ws: HookWorkspace;
  const env = () => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_HOME: home });

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    home = newHome();
    ws = hookWorkspace();
  });

  it('-p: a UserPromptSubmit hook that exits 2 refuses the prompt: exit 1, the reason on stderr, no model call', async () => {
    ws.settings({ UserPromptSubmit: hookGroup('grep -q password && { echo "prompts must not contain passwords" >&2; exit 2; }; exit 0') });
    await trustFolder(home, ws.workspace); // the test's own hooks: the folder is trusted
    const r = await opendev(['-p', 'log in with password hunter2', '-C', ws.workspace], env());
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /UserPromptSubmit hook blocked this prompt: prompts must not contain passwords/);
    assert.equal(r.stdout, '');
    assert.equal(fake.requests.length, 0, 'the model was never called');

    const json = await opendev(['-p', 'my password', '-C', ws.workspace, '--output-format', 'json'], env());
    assert.equal(json.code, 1);
    const out = JSON.parse(json.stdout);
    assert.equal(out.status, 'blocked');
    assert.deepEqual(out.error, { kind: 'hook_blocked', message: 'prompts must not contain passwords' });
    assert.equal(fake.requests.length, 0);
  });

  it('-p: SessionStart and SessionEnd hooks run around the session, and the CLI exits', async () => {
    ws.settings({ SessionStart: hookGroup(logInput), SessionEnd: hookGroup(logInput) });
    await trustFolder(home, ws.workspace); // the test's own hooks: the folder is trusted
    fake.enqueue({ text: 'Hello.' });
    const r = await opendev(['-p', 'hi', '-C', ws.workspace], env());
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Hello.\n');
    assert.deepEqual(ws.inputs().map((i) => `${i.hook_event_name}:${i.source ?? i.reason}`), ['SessionStart:startup', 'SessionEnd:other']);
  });
});
