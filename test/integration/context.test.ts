import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { playbookPath } from '../../src/core/memory/playbook/playbook-store';
import type { OpenDevApi } from '../../src/vscode/opendev-api';
import { allToolResults, type ScriptedTurn } from '../fixtures/fake-provider';
import { harnessCallOf as kindOf, scriptedHarness } from '../fixtures/harness-calls';
import { fakeProviderSuite, until } from './support';

/**
 * Context engineering in a real session of the VS Code chat: the composed prompt with the project's
 * OPENDEV.md, a large command output offloaded to the scratch folder, error recovery after a failed
 * command, the context meter, /compact from the palette (archive + artifact index), the thinking
 * phase on dual memory, and the playbook learning and opening — all through the editor's settings.
 */
describe('context engineering in the VS Code chat', function () {
  this.timeout(120_000);
  // The playbook reflects at the paper's cadence (every 5 messages), so this short session learns.
  const suite = fakeProviderSuite({ thinkingLevel: 'low', approvalLevel: 'auto', contextWindow: 60_000, 'playbook.learn': true, 'playbook.reflectEvery': 5 });
  const { fake } = suite;
  let api: OpenDevApi;
  let folder: string;
  const steps: ScriptedTurn[] = [];

  before(() => {
    api = suite.api;
    folder = suite.folder;
    writeFileSync(join(folder, 'OPENDEV.md'), '# Project rules\nAlways answer in British English.\n');
  });
  // After the suite's reset of the fake, which puts its own responder back.
  beforeEach(() => fake.setResponder(scriptedHarness(steps, 'Run the tests after changing math.ts.')));
  after(() => {
    rmSync(join(folder, 'OPENDEV.md'), { force: true });
    fake.setResponder(undefined);
  });

  it('composes the prompt, offloads a large output, recovers from an error, meters the context, compacts, thinks on memory and learns', async () => {
    api.newChat();
    steps.push(
      { toolCalls: [{ id: 'call_seq', name: 'run_command', arguments: { command: 'seq 1 20000' } }] },
      { toolCalls: [{ id: 'call_missing', name: 'run_command', arguments: { command: 'cat no-such-file.txt' } }] },
      { toolCalls: [{ id: 'call_read', name: 'read_file', arguments: { file_path: 'math.ts' } }] },
      { text: 'math.ts exports PI, add and subtract; the listing is saved.' },
    );
    const result = await api.send('list the numbers, then look at math.ts');
    assert.equal(result?.status, 'completed');
    const actions = fake.requests.filter((r) => kindOf(r) === 'action');

    // 1. The composed system prompt: sections, environment, the project's OPENDEV.md (dynamic part).
    const system = JSON.stringify(actions[0]!.body.messages[0]);
    assert.match(system, /Read before you edit/);
    assert.match(system, /Always answer in British English/);

    // 2. The 108,894-character listing left the context: a preview, the path, a hint; the card shows the summary.
    const results = allToolResults(actions.at(-1)!);
    const listing = results[0]!.content;
    assert.ok(listing.length < 2_000, `offloaded: ${listing.length} chars in context`);
    const saved = /(\/\S+run_command-\S+\.txt)/.exec(listing)?.[1];
    assert.ok(saved && existsSync(saved) && readFileSync(saved, 'utf8').includes('\n20000'), `saved whole: ${saved}`);
    const card = api.transcript().find((e) => e.kind === 'tool' && e.name === 'run_command');
    assert.ok(card?.kind === 'tool' && card.summary && card.summary.length <= 200, 'the card has a one-line summary');

    // 3–4. The failed command got a typed recovery reminder before the next call.
    const afterFailure = JSON.stringify(actions[2]!.body.messages.slice(-2));
    assert.match(afterFailure, /no-such-file\.txt/);
    assert.match(afterFailure, /not found|does not exist|No such file/i);

    // 7. Thinking ran on the dual memory once the task was taken up (the thinking role has no tools).
    assert.ok(fake.requests.some((r) => kindOf(r) === 'thinking'), 'the thinking phase called the model');

    // 9. The context meter: pressure against the configured window.
    const meter = api.context();
    assert.ok(meter && meter.contextWindow === 60_000 && meter.pressure > 0 && meter.pressure < 1, JSON.stringify(meter));

    // 5. Compact from the palette: the history is summarised, archived, and the next request says so.
    const before = fake.requests.length;
    await vscode.commands.executeCommand('opendev.compact'); // resolves when /compact is done
    assert.ok(fake.requests.slice(before).some((r) => kindOf(r) === 'compaction'), 'the compact model summarised the history');
    steps.push({ text: 'Still here.' });
    await api.send('what did we do?');
    const next = fake.requests.filter((r) => kindOf(r) === 'action').at(-1)!;
    const compacted = JSON.stringify(next.body.messages);
    assert.match(compacted, /\[Conversation compacted\]/);
    assert.match(compacted, /seq 1 20000/, 'the artifact index lists the command');
    assert.match(compacted, /compaction-[^`"]+\.md/, 'and names the archive');

    // 8. The playbook learned in the background and opens in an editor.
    const playbook = playbookPath(folder);
    await until(() => existsSync(playbook) && readFileSync(playbook, 'utf8').includes('Run the tests after changing math.ts.'), 'the playbook to learn');
    await vscode.commands.executeCommand('opendev.openPlaybook');
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, playbook);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
