// One session id across processes, through the real CLI: `--continue` builds the agent under the
// saved session's id, so the next process can undo a step of the previous one, and the scratch
// folder and the hooks' session_id name the session the files are saved as.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeProvider, toolResults, type ScriptedTurn } from '../../fixtures/fake-provider';
import { hookGroup, hookWorkspace, logInput, type HookWorkspace } from '../../helpers/hook-workspace';
import { trustFolder } from '../../helpers/trust-folder';
import { newHome, opendev } from './cli-harness';

/** The first undo snapshot of a session in `home` is on disk (its index), within one generous limit. */
async function firstSnapshotTaken(home: string): Promise<void> {
  const root = join(home, 'snapshot');
  const indexes = () => {
    try {
      return readdirSync(root).flatMap((repo) => readdirSync(join(root, repo, 'indexes')));
    } catch {
      return [];
    }
  };
  for (const deadline = Date.now() + 60_000; indexes().length === 0; ) {
    if (Date.now() > deadline) throw new Error('the session took no snapshot');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('opendev CLI: --continue keeps the session id (undo, scratch folder, hooks)', function () {
  this.timeout(90_000);
  const fake = new FakeProvider();
  let home: string;
  let ws: HookWorkspace;
  const env = () => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_HOME: home, OPENDEV_SESSION_TITLES: '0' });
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
    const turns: ScriptedTurn[] = [
      { toolCalls: [{ name: 'write_file', arguments: { file_path: 'notes.txt', content: 'remember the milk\n' } }] },
      // Over 8,000 characters: offloaded to the session's scratch folder.
      { toolCalls: [{ name: 'run_command', arguments: { command: 'seq 1 3000' } }] },
      { text: 'Saved the note.' },
    ];
    // A model takes seconds before its first write; this one answers at once. On a loaded machine its
    // write could outrun the session's first snapshot (and go on without undo): it waits for it.
    fake.setResponder(async () => {
      if (turns.length === 3) await firstSnapshotTaken(home);
      return turns.shift() ?? { text: 'done' };
    });
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
