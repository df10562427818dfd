// One session id across processes, through the real CLI: `--continue` builds the agent under the
// saved session's id, so the next process can undo a step of the previous one, and the scratch
// folder and the hooks' session_id name the session the files are saved as.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeProvider, toolResults } from '../../fixtures/fake-provider';
import { hookGroup, hookWorkspace, logInput, type HookWorkspace } from '../../helpers/hook-workspace';
import { trustFolder } from '../../helpers/trust-folder';
import { newHome, opendev } from './cli-harness';

describe('opendev CLI: --continue keeps the session id (undo, scratch folder, hooks)', function () {
  this.timeout(90_000);
  const fake = new FakeProvider();
  let home: string;
  let ws: HookWorkspace;
  // Step 1 is undone: a loaded machine must not push its snapshot past the 2 s default budget.
  const env = () => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_HOME: home, OPENDEV_SESSION_TITLES: '0', OPENDEV_UNDO_BUDGET_MS: '60000' });
  const run = (args: string[]) => opendev([...args, '-C', ws.workspace, '--output-format', 'json', '--approval', 'auto'], env());

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(async () => {
    fake.reset();
    home = newHome();
    ws = hookWorkspace();
    ws.settings({ UserPromptSubmit: hookGroup(logInput) });
    await trustFolder(home, ws.workspace); // the test's own hooks: the folder is trusted
  });

  it('a step written by one process is undone by /undo in the next one, resumed with --continue', async () => {
    fake.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { file_path: 'notes.txt', content: 'remember the milk\n' } }] },
      // Over 8,000 characters: offloaded to the session's scratch folder.
      { toolCalls: [{ name: 'run_command', arguments: { command: 'seq 1 3000' } }] },
      { text: 'Saved the note.' },
    );
    const first = await run(['-p', 'save a note, then count']);
    assert.equal(first.code, 0, first.stderr);
    const id = JSON.parse(first.stdout).sessionId as string;
    assert.match(id, /^[a-z0-9]{8}$/);
    assert.equal(readFileSync(join(ws.workspace, 'notes.txt'), 'utf8'), 'remember the milk\n');
    assert.deepEqual(readdirSync(join(home, 'scratch')), [id], 'the scratch folder is named after the saved session');
    assert.match(toolResults(fake.requests[2]!)[0]!.content, new RegExp(`scratch/${id}/`));

    const undo = await run(['--continue', '-p', '/undo 1']);
    assert.equal(undo.code, 0, undo.stderr);
    assert.equal(JSON.parse(undo.stdout).sessionId, id);
    assert.match(JSON.parse(undo.stdout).result, /Undid step 1 \(write_file\): 0 files restored, 1 file removed/);
    assert.equal(existsSync(join(ws.workspace, 'notes.txt')), false, 'the earlier process’s file is gone');

    fake.enqueue({ text: 'Noted.' });
    const next = await run(['--continue', '-p', 'what did you undo?']);
    assert.equal(next.code, 0, next.stderr);
    assert.equal(JSON.parse(next.stdout).sessionId, id);
    assert.match(JSON.stringify(fake.requests.at(-1)!.body.messages), /The user undid step 1/, 'the model is told what was undone');
    assert.deepEqual(ws.inputs().map((i) => i.session_id), [id, id], 'hooks see the saved session’s id in both processes');
  });
});
