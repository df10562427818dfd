import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent } from '../../../../src/core/agent/agent';
import { createMainAgent } from '../../../../src/core/agent/create-agent';
import { createSlashCommands } from '../../../../src/core/commands/slash-commands';
import { silentUI, type UICallback } from '../../../../src/core/ui';
import { FakeProvider } from '../../../fixtures/fake-provider';
import { gitDirState, initProjectRepo, workspaceState, writeFiles } from './workspace-state';

/**
 * A scripted session through the real agent (fake provider over HTTP, real tools, real git): new
 * files, an edit, a deletion and shell side effects, then /undo step by step. After each undo the
 * workspace must be byte-identical to what it was after the step before, and the project's own
 * repository must never change.
 */
describe('/undo in a real session', function () {
  this.timeout(60_000);
  const fake = new FakeProvider();
  const commands = createSlashCommands();
  let workspace: string;
  let home: string;
  let agent: Agent;
  let notices: string[];
  const ui: UICallback = {
    ...silentUI,
    requestApproval: async () => ({ action: 'allow' }),
    onNotice: (text) => notices.push(text),
  };
  const undo = async (args = '') => (await commands.run(`/undo${args ? ` ${args}` : ''}`, { agent, front: 'cli', workingDir: workspace })).output;
  const state = () => workspaceState(workspace);
  const turn = async (text: string, ...steps: Array<Array<{ name: string; arguments: Record<string, unknown> }>>) => {
    fake.enqueue(...steps.map((toolCalls) => ({ toolCalls })), { text: 'Done.' });
    const result = await agent.runTurn(text, ui);
    assert.equal(result.status, 'completed', JSON.stringify(result));
  };

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(async () => {
    fake.reset();
    notices = [];
    workspace = mkdtempSync(join(tmpdir(), 'opendev-undo-session-'));
    home = mkdtempSync(join(tmpdir(), 'opendev-undo-home-'));
    initProjectRepo(workspace);
    writeFiles(workspace, { 'notes.md': '# notes\n', 'keep.txt': 'keep\n', 'dist/ignored.js': 'build output\n' });
    agent = await createMainAgent({
      roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'k', baseUrl: fake.openaiBaseUrl } },
      workspaceRoot: workspace,
      home,
      approvalLevel: 'auto',
      // A loaded machine may take longer than the 2 s default over a cold first snapshot; the step
      // then rightly cannot be undone, and these tests undo every step.
      undo: { budgetMs: 60_000 },
    });
  });
  afterEach(async () => {
    await agent.dispose();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  it('restores byte-identical trees step by step, tells the model, and never touches the project .git', async () => {
    const userRepo = gitDirState(join(workspace, '.git'));
    assert.match(await undo(), /^Nothing to undo: no step of this session has changed files yet\.$/);
    const s0 = state();
    await turn('create two files', [
      { name: 'write_file', arguments: { file_path: 'a.txt', content: 'A\n' } },
      { name: 'write_file', arguments: { file_path: 'pkg/b.txt', content: 'B\n', create_dirs: true } },
    ]);
    const s1 = state();
    await turn(
      'edit, generate, delete',
      [{ name: 'read_file', arguments: { file_path: 'notes.md' } }],
      [{ name: 'edit_file', arguments: { file_path: 'notes.md', old_content: '# notes', new_content: '# notes v2' } }],
      [{ name: 'run_command', arguments: { command: 'echo generated > gen.txt && rm keep.txt && echo rebuilt > dist/ignored.js' } }],
    );
    const s3 = state();
    await turn('binary and mode', [{ name: 'run_command', arguments: { command: "printf '\\000\\001\\r\\n' > bin.dat && chmod +x a.txt && rm -r pkg" } }]);
    const s4 = state();
    assert.notDeepEqual(s4, s3);

    assert.match(await undo('list'), /step +5 .* 3 files {2}run_command\n {2}step +4 .*\n {2}step +3 .* edit_file\n {2}step +1 .* 2 files {2}write_file/);

    assert.match(await undo(), /^Undid step 5 \(run_command\): 2 files restored, 1 file removed\./);
    // The ignored build output is not the snapshots' business: it keeps the command's version.
    assert.deepEqual(state(), s3);
    fake.enqueue({ text: 'I see.' });
    await agent.runTurn('what changed?', ui);
    const sent = JSON.stringify(fake.requests.at(-1)!.body.messages);
    assert.match(sent, /The user undid step 5 with \/undo/);
    assert.match(sent, /- restored: a\.txt\\n- restored: pkg\/b\.txt\\n- removed: bin\.dat/);

    assert.match(await undo(), /^Undid step 4 \(run_command\): 1 file restored, 1 file removed\.\n {2}restored keep\.txt\n {2}removed gen\.txt/);
    assert.match(await undo(), /^Undid step 3 \(edit_file\): 1 file restored, 0 files removed\./);
    assert.deepEqual(state(), { ...s1, 'dist/ignored.js': s4['dist/ignored.js']! });
    assert.match(await undo(), /^Undid step 1 \(write_file\): 0 files restored, 2 files removed\./);
    assert.deepEqual(state(), { ...s0, 'dist/ignored.js': s4['dist/ignored.js']! });
    assert.match(await undo(), /^Nothing left to undo/);
    assert.deepEqual(gitDirState(join(workspace, '.git')), userRepo, "the project's HEAD, index, refs, config and objects are untouched");
  });

  it('/undo <step> goes back to just before that step; a bad argument is a usage error', async () => {
    const s0 = state();
    await turn('one', [{ name: 'write_file', arguments: { file_path: 'one.txt', content: '1\n' } }]);
    await turn('two', [{ name: 'run_command', arguments: { command: 'echo 2 > two.txt && echo changed > notes.md' } }]);
    assert.match(await undo('1'), /^Undid steps 1, 2 \(run_command, write_file\): 1 file restored, 2 files removed\./);
    assert.deepEqual(state(), s0);
    const bad = await commands.run('/undo yesterday', { agent, front: 'cli' });
    assert.equal(bad.error, 'usage');
    assert.match(await undo('7'), /^There is no step 7 yet \(this session has had 2\)\.$/);
  });

  it('refuses while a turn runs', async () => {
    // The model answers only once the test has tried /undo: the turn is running all that time.
    let answer!: () => void;
    const asked = new Promise<void>((resolve) => (answer = resolve));
    fake.setResponder(async () => (await asked, { text: 'done at last' }));
    const running = agent.runTurn('wait', ui);
    await fake.waitForRequests(1);
    const outcome = await agent.undo();
    answer();
    assert.equal(outcome.status, 'unavailable');
    assert.match(outcome.message, /Wait for it to finish/);
    assert.equal((await running).status, 'completed');
  });
});
