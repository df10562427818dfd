import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent } from '../../../../../src/core/agent/agent';
import { createMainAgent } from '../../../../../src/core/agent/create-agent';
import { createSlashCommands } from '../../../../../src/core/commands/slash-commands';
import { isValidHistory } from '../../../../../src/core/context/validated-messages';
import { silentUI, type ContextInfo, type UICallback } from '../../../../../src/core/ui';
import { FakeProvider, toolResults, type RecordedRequest, type ScriptedTurn } from '../../../../fixtures/fake-provider';
import { workHistory } from './work-history';

/** The full compaction as the agent factory wires it: `/compact` through the shared command registry, and the 99% stage. */
describe('full compaction through the agent factory (fake provider)', function () {
  this.timeout(60_000);
  const fake = new FakeProvider();
  const commands = createSlashCommands();
  let workspace: string;
  let agent: Agent | undefined;
  /**
   * The session makes other model calls besides the agent's own (the playbook's reflection): the
   * script answers the agent's calls (they carry tools) and the compaction call; anything else gets '{}'.
   */
  let actions: ScriptedTurn[] = [];
  let summaries: ScriptedTurn[] = [];
  const compactRequests = () => fake.requests.filter(isCompaction);
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    actions = [];
    summaries = [];
    fake.setResponder((req) => (isCompaction(req) ? summaries.shift() : (req.body.tools ?? []).length > 0 ? actions.shift() : undefined) ?? { text: '{}' });
    workspace = mkdtempSync(join(tmpdir(), 'opendev-compact-'));
    mkdirSync(join(workspace, '.opendev'));
    writeFileSync(join(workspace, 'notes.txt'), 'The secret word is PAPAYA-7731.\n');
    // A PreCompact hook that records its input.
    writeFileSync(
      join(workspace, '.opendev/settings.json'),
      JSON.stringify({ hooks: { PreCompact: [{ matcher: 'manual', hooks: [{ type: 'command', command: 'cat > "$OPENDEV_PROJECT_DIR/precompact.json"' }] }] } }),
    );
  });
  afterEach(() => agent?.dispose());

  const build = async () => {
    agent = await createMainAgent({
      roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'k', baseUrl: fake.openaiBaseUrl } },
      workspaceRoot: workspace,
      home: join(workspace, '.home'),
      approvalLevel: 'auto',
      projectTrusted: true, // the test's own PreCompact hooks
    });
    return agent;
  };
  /** A first turn that reads notes.txt, runs a command and answers: six messages. */
  const work = async (a: Agent) => {
    actions.push(
      { toolCalls: [{ name: 'read_file', arguments: { file_path: 'notes.txt' } }] },
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo checked' } }] },
      { text: 'I read the notes.' },
    );
    await a.runTurn('Read notes.txt and check it.', silentUI);
    assert.equal(a.messages.length, 6);
  };
  const archivedAt = (req: RecordedRequest): string | undefined => /archived at `([^`]+)`/.exec(JSON.stringify(req.body.messages).replace(/\\n/g, '\n'))?.[1];

  it('summarises the conversation, says what it did, and the agent can read the archive back', async () => {
    const a = await build();
    await work(a);
    summaries.push({ text: '## Goal\nRead the notes.\n## Next steps\nNone.' });
    const result = await commands.run('/compact keep the file names', { agent: a, front: 'cli' });
    assert.equal(result.error, undefined, result.output);
    assert.match(result.output, /^Compacted the conversation: 2 messages summarised, 6 → 5 messages, about [\d,]+ → [\d,]+ tokens\./);
    assert.match(result.output, /The full history is archived at .*compaction-1-.*\.md/);

    // The summariser was asked with the user's instructions; the PreCompact hook ran with trigger manual.
    assert.equal(compactRequests().length, 1);
    const ask = JSON.stringify(compactRequests()[0]!.body.messages);
    assert.match(ask, /keep the file names/);
    const input = JSON.parse(readFileSync(join(workspace, 'precompact.json'), 'utf8'));
    assert.equal(input.hook_event_name, 'PreCompact');
    assert.equal(input.trigger, 'manual');
    assert.equal(input.custom_instructions, 'keep the file names');

    const history = a.messages;
    assert.equal(history[0]!.content, 'Read notes.txt and check it.');
    assert.match(history[1]!.content, /^\[Conversation compacted\][\s\S]*Files read: notes\.txt[\s\S]*Commands run: `echo checked`/);
    assert.ok(!history.some((m) => m.content.includes('PAPAYA-7731')), 'the read output left the context');
    assert.ok(isValidHistory(history));

    // Next turn: the model reads the archive named in the summary, and gets the old output back.
    const path = /archived at `([^`]+)`/.exec(history[1]!.content)?.[1];
    assert.ok(path);
    actions.push({ toolCalls: [{ name: 'read_file', arguments: { file_path: path } }] }, { text: 'The secret word is PAPAYA-7731.' });
    const turn = await a.runTurn('What did notes.txt say?', silentUI);
    assert.equal(turn.text, 'The secret word is PAPAYA-7731.');
    const answered = fake.requests.filter((r) => (r.body.tools ?? []).length > 0).at(-1)!;
    assert.ok(archivedAt(answered), 'the summary with the archive path was in the prompt');
    assert.match(toolResults(answered)[0]!.content, /The secret word is PAPAYA-7731\./);
  });

  it('is refused while the agent works, and says a fresh conversation has nothing to compact', async () => {
    const a = await build();
    const fresh = await commands.run('/compact', { agent: a, front: 'vscode' });
    assert.match(fresh.output, /too short to compact/);
    assert.equal(fake.requests.length, 0);

    actions.push({ text: 'slow answer', delayMs: 500 });
    const running = a.runTurn('hello', silentUI);
    await fake.waitForRequests(1);
    const refused = await commands.run('/compact', { agent: a, front: 'vscode' });
    assert.equal(refused.error, 'usage');
    assert.match(refused.output, /Wait for the agent to finish/);
    await running;
    assert.equal(compactRequests().length, 0, 'no compaction call was made');
  });

  it('compacts by itself at 99% in a turn, tells the user, and the turn goes on', async () => {
    const a = await build();
    a.restore(workHistory());
    const notices: string[] = [];
    const contexts: ContextInfo[] = [];
    const ui: UICallback = { ...silentUI, onNotice: (text) => notices.push(text), onContext: (info) => contexts.push(info) };
    // The first call reports a prompt of 130,000 tokens (an unknown model's window is 128,000): masking alone cannot help.
    actions.push({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo more' } }], usage: { promptTokens: 130_000 } }, { text: 'Carried on.' });
    summaries.push({ text: '## Goal\nFix the parser.' });
    const turn = await a.runTurn('Go on.', ui);
    assert.equal(turn.text, 'Carried on.');
    assert.equal(compactRequests().length, 1);
    const notice = notices.find((n) => /compacted the conversation/.test(n));
    assert.match(notice ?? notices.join('\n'), /^Context \d+% full: compacted the conversation \(\d+ messages summarised\), about [\d,]+ tokens freed\. The full history is archived at .*compaction-1-.*\.md\.$/);
    assert.ok(contexts.some((c) => c.stage === 'full_compaction' && (c.tokensFreed ?? 0) > 0));
    assert.ok(contexts.at(-1)!.pressure < 0.8, `the meter after: ${contexts.at(-1)!.pressure}`);
    assert.match(a.messages[1]!.content, /^\[Conversation compacted\]/);
    assert.ok(isValidHistory(a.messages));
  });

  it('/help lists /compact as available', async () => {
    const a = await build();
    const help = await commands.run('/help', { agent: a, front: 'cli' });
    assert.match(help.output, /\/compact \[instructions\] +Summarise the conversation/);
    assert.doesNotMatch(help.output, /\/compact .*not available yet/);
  });
});

function isCompaction(req: RecordedRequest): boolean {
  return JSON.stringify(req.body.messages ?? []).includes('You compact the conversation of a coding agent');
}
