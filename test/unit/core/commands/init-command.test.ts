import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent } from '../../../../src/core/agent/agent';
import { createMainAgent } from '../../../../src/core/agent/create-agent';
import type { CommandContext } from '../../../../src/core/commands/command-registry';
import { createSlashCommands } from '../../../../src/core/commands/slash-commands';
import { silentUI, type ApprovalRequest, type AskUserQuestion, type UICallback } from '../../../../src/core/ui';
import { FakeProvider, lastUserText, type RecordedRequest, type ScriptedTurn } from '../../../fixtures/fake-provider';

const WRITTEN = '# OPENDEV.md\n\n## Overview\nA tiny calculator.\n\n## Commands\n- Test: `npm test`\n';
const OLD = '# Old notes\r\nBuild with make.\r\n';

/**
 * /init through the real agent factory: the command, the main agent's turn, the Project-Init
 * subagent and its write, with the fake provider over HTTP as every model.
 */
describe('/init (Project-Init writes OPENDEV.md)', function () {
  this.timeout(60_000);
  const fake = new FakeProvider();
  const commands = createSlashCommands();
  let workspace: string;
  let home: string;
  let agent: Agent;
  let approvals: ApprovalRequest[];
  let asked: AskUserQuestion[][];
  const ui: UICallback = {
    ...silentUI,
    requestApproval: async (request) => {
      approvals.push(request);
      return { action: 'allow' };
    },
  };
  const isSubagent = (req: RecordedRequest) => JSON.stringify(req.body.messages?.[0] ?? '').includes('You are Project-Init');
  const isAction = (req: RecordedRequest) => (req.body.tools ?? []).length > 0;
  let subagentSteps: ScriptedTurn[];
  let spawnedTask = '';

  const context = (extra: Partial<CommandContext> = {}): CommandContext => ({ agent, front: 'cli', workingDir: workspace, ...extra });
  const answer = (label: string | undefined): CommandContext['askUser'] => async (questions) => {
    asked.push([...questions]);
    return label === undefined ? undefined : { answers: [{ header: questions[0]!.header, selected: [label] }] };
  };

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(async () => {
    fake.reset();
    approvals = [];
    asked = [];
    spawnedTask = '';
    subagentSteps = [];
    workspace = mkdtempSync(join(tmpdir(), 'opendev-init-'));
    home = mkdtempSync(join(tmpdir(), 'opendev-init-home-'));
    writeFileSync(join(workspace, 'package.json'), JSON.stringify({ name: 'calc', scripts: { test: 'mocha' } }));
    // The main model follows /init's prompt: it passes the quoted task to Project-Init, then reports.
    fake.setResponder((req) => {
      if (!isAction(req)) return { text: '{}' }; // side calls (playbook, memory)
      if (isSubagent(req)) return subagentSteps.shift() ?? { text: 'Done.' };
      const spawned = JSON.stringify(req.body.messages).includes('"role":"tool"');
      if (!spawned) {
        spawnedTask = /"(Analyse this repository[^"]*)"/.exec(lastUserText(req))?.[1] ?? '';
        return { toolCalls: [{ name: 'spawn_subagent', arguments: { subagent_type: 'Project-Init', task: spawnedTask } }] };
      }
      return { text: 'OPENDEV.md now gives the overview and the test command.' };
    });
    agent = await createMainAgent({
      roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'k', baseUrl: fake.openaiBaseUrl } },
      workspaceRoot: workspace,
      home,
      approvalLevel: 'semi-auto',
      // The write is undone: a loaded machine must not push its snapshot past the 2 s default.
      undo: { budgetMs: 60_000 },
    });
  });
  afterEach(async () => {
    await agent.dispose();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  it('with no OPENDEV.md: the main agent hands the task to Project-Init, whose write (approved with its content shown) creates the file', async () => {
    subagentSteps = [
      { toolCalls: [{ name: 'read_file', arguments: { file_path: 'package.json' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { file_path: 'OPENDEV.md', content: WRITTEN } }] },
      { toolCalls: [{ name: 'task_complete', arguments: { summary: 'Wrote OPENDEV.md.', status: 'success' } }] },
    ];
    const result = await commands.run('/init', context({ askUser: answer('Rewrite it') }));
    assert.equal(result.error, undefined, result.output);
    assert.deepEqual(asked, [], 'nothing to ask when there is no file');
    assert.match(result.output, /Writing OPENDEV\.md with the Project-Init subagent/);
    assert.match(result.runPrompt ?? '', /spawn_subagent/);
    assert.match(result.runPrompt ?? '', /"Project-Init"/);

    const turn = await agent.runTurn(result.runPrompt!, ui);
    assert.equal(turn.status, 'completed', JSON.stringify(turn));
    assert.equal(readFileSync(join(workspace, 'OPENDEV.md'), 'utf8'), WRITTEN);
    assert.match(spawnedTask, /There is no OPENDEV\.md yet\./);
    const subagentAsk = fake.requests.find(isSubagent)!;
    assert.ok(lastUserText(subagentAsk).includes(spawnedTask), 'the subagent got the task /init wrote');
    // The subagent's system prompt: the sections it must write.
    assert.match(JSON.stringify(subagentAsk.body.messages[0]), /\*\*Commands\*\*/);
    const write = approvals.find((a) => a.toolName === 'write_file');
    assert.ok(write, `the write asked for approval: ${JSON.stringify(approvals.map((a) => a.toolName))}`);
    assert.equal(write.proposed?.after, WRITTEN);
    assert.match(turn.text, /OPENDEV\.md now gives/);
  });

  it('with an OPENDEV.md: the user is asked first, and "Keep it" leaves the file byte-identical with no model call', async () => {
    writeFileSync(join(workspace, 'OPENDEV.md'), OLD);
    const result = await commands.run('/init', context({ askUser: answer('Keep it') }));
    assert.equal(asked.length, 1);
    assert.equal(asked[0]![0]!.header, 'OPENDEV.md');
    assert.match(asked[0]![0]!.question, /OPENDEV\.md already exists \(\d+ bytes\)\. Should the Project-Init subagent rewrite it/);
    assert.deepEqual(asked[0]![0]!.options.map((o) => o.label), ['Rewrite it', 'Keep it']);
    assert.equal(result.runPrompt, undefined);
    assert.equal(result.output, 'OPENDEV.md was left as it is.');
    assert.equal(readFileSync(join(workspace, 'OPENDEV.md'), 'utf8'), OLD);
    assert.equal(fake.requests.length, 0);

    // Dismissing the question (Esc, a new chat) is a no as well.
    const dismissed = await commands.run('/init', context({ askUser: answer(undefined) }));
    assert.equal(dismissed.runPrompt, undefined);
    assert.equal(readFileSync(join(workspace, 'OPENDEV.md'), 'utf8'), OLD);
  });

  it('"Rewrite it": Project-Init reads the file and edits it (the diff is approved), and /undo puts the old one back', async () => {
    writeFileSync(join(workspace, 'OPENDEV.md'), OLD);
    subagentSteps = [
      { toolCalls: [{ name: 'read_file', arguments: { file_path: 'OPENDEV.md' } }] },
      { toolCalls: [{ name: 'edit_file', arguments: { file_path: 'OPENDEV.md', old_content: '# Old notes\nBuild with make.\n', new_content: '# OPENDEV.md\nBuild with make; test with npm test.\n' } }] },
      { toolCalls: [{ name: 'task_complete', arguments: { summary: 'Updated OPENDEV.md.', status: 'success' } }] },
    ];
    const result = await commands.run('/init', context({ askUser: answer('Rewrite it') }));
    assert.match(result.output, /Rewriting OPENDEV\.md/);
    const turn = await agent.runTurn(result.runPrompt!, ui);
    assert.equal(turn.status, 'completed', JSON.stringify(turn));
    assert.match(spawnedTask, /OPENDEV\.md exists and the user agreed to have it rewritten/);
    assert.equal(readFileSync(join(workspace, 'OPENDEV.md'), 'utf8'), '# OPENDEV.md\r\nBuild with make; test with npm test.\r\n');
    const edit = approvals.find((a) => a.toolName === 'edit_file');
    assert.ok(edit, 'the edit asked for approval');
    assert.match(edit.diff ?? '', /^-# Old notes$/m, 'with its diff against the old file');
    assert.match(edit.diff ?? '', /^\+# OPENDEV\.md$/m);

    const undone = await commands.run('/undo', context());
    assert.equal(undone.error, undefined, undone.output);
    assert.equal(readFileSync(join(workspace, 'OPENDEV.md'), 'utf8'), OLD);
  });

  it('where nobody can answer (-p), an existing file is kept unless /init --force; a focus is passed on', async () => {
    writeFileSync(join(workspace, 'OPENDEV.md'), OLD);
    const kept = await commands.run('/init', context());
    assert.equal(kept.error, undefined);
    assert.equal(kept.runPrompt, undefined);
    assert.match(kept.output, /OPENDEV\.md already exists and was left as it is\. Run \/init --force to have it rewritten\./);
    assert.equal(readFileSync(join(workspace, 'OPENDEV.md'), 'utf8'), OLD);

    const forced = await commands.run('/init --force mention the release steps', context());
    assert.match(forced.runPrompt ?? '', /the user agreed to have it rewritten/);
    assert.match(forced.runPrompt ?? '', /The user asks: mention the release steps"/);
  });

  it('refuses in plan mode and without a project folder, and is not offered while the agent works', async () => {
    agent.setMode('plan');
    const planned = await commands.run('/init', context());
    assert.equal(planned.error, 'usage');
    assert.match(planned.output, /plan mode does not allow/);
    agent.setMode('normal');
    const nowhere = await commands.run('/init', { agent, front: 'cli' });
    assert.equal(nowhere.error, 'unavailable');
    assert.match(nowhere.output, /open a folder first/);
    assert.equal(commands.get('init')!.whileRunning, undefined);
    assert.equal(existsSync(join(workspace, 'OPENDEV.md')), false);
  });
});
