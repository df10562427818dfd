import * as assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMainAgent } from '../../../../src/core/agent/create-agent';
import { applyDelta } from '../../../../src/core/memory/playbook/delta';
import { playbookPath, PlaybookStore } from '../../../../src/core/memory/playbook/playbook-store';
import { silentUI } from '../../../../src/core/ui';
import { FakeProvider, type RecordedRequest, type ScriptedTurn } from '../../../fixtures/fake-provider';
import { kindOf, systemText, tempHome } from './memory-fixtures';

const fixtureWorkspace = join(__dirname, '../../../../../test/fixtures/workspace');
const LESSON = 'math.ts keeps its exports sorted alphabetically.';
const isExplorer = (req: RecordedRequest) => /You are Code-Explorer/.test(systemText(req));

describe('memory wired into createMainAgent', function () {
  this.timeout(30_000);
  const fake = new FakeProvider();
  let workspace: string;
  let home: ReturnType<typeof tempHome>;
  const create = (playbookLearning?: boolean) =>
    createMainAgent({ roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'k', baseUrl: fake.openaiBaseUrl } }, workspaceRoot: workspace, home: home.home, playbookLearning });

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(async () => {
    fake.reset();
    home = tempHome();
    workspace = mkdtempSync(join(tmpdir(), 'opendev-memory-ws-'));
    cpSync(fixtureWorkspace, workspace, { recursive: true });
    await new PlaybookStore(playbookPath(workspace, home.home)).update((p) => applyDelta(p, [{ type: 'add', section: 'code-style', content: LESSON }], new Date()).playbook);
  });
  afterEach(() => home.cleanup());

  it("the main agent's prompt carries the project's playbook; a subagent's does not", async () => {
    let mainCalls = 0;
    fake.setResponder((req): ScriptedTurn => {
      if (isExplorer(req)) return { text: 'explored' };
      mainCalls++;
      if (mainCalls === 1) return { toolCalls: [{ name: 'spawn_subagent', arguments: { subagent_type: 'Code-Explorer', task: 'list the exports of math.ts' } }] };
      return { text: 'Done.' };
    });
    const agent = await create();
    assert.equal((await agent.runTurn('add a multiply export to math.ts', silentUI)).status, 'completed');
    await agent.dispose();

    const main = fake.requests.filter((r) => !isExplorer(r));
    const explorer = fake.requests.filter(isExplorer);
    assert.ok(explorer.length > 0);
    assert.match(systemText(main[0]!), /\[pb-1\] math\.ts keeps its exports sorted alphabetically\./);
    for (const r of explorer) assert.doesNotMatch(systemText(r), /keeps its exports sorted/);
  });

  it('learns only when playbookLearning is on', async () => {
    const script = (): ScriptedTurn[] => [
      { toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }] },
      { toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }] },
      { text: 'Done.' },
    ];
    const respond = (turns: ScriptedTurn[]) => (req: RecordedRequest): ScriptedTurn =>
      kindOf(req) === 'reflector' ? { text: JSON.stringify({ bullet_tags: [{ id: 'pb-1', tag: 'helpful' }], insights: [] }) } : turns.shift() ?? { text: 'extra' };

    fake.setResponder(respond(script()));
    const quiet = await create();
    await quiet.runTurn('read math.ts twice', silentUI);
    await quiet.dispose();
    assert.equal(fake.requests.filter((r) => kindOf(r) === 'reflector').length, 0);

    fake.reset();
    fake.setResponder(respond(script()));
    const learning = await create(true);
    await learning.runTurn('read math.ts twice', silentUI);
    await learning.dispose();
    assert.equal(fake.requests.filter((r) => kindOf(r) === 'reflector').length, 1);
    assert.equal(JSON.parse(readFileSync(playbookPath(workspace, home.home), 'utf8')).bullets[0].helpful, 1);
  });
});
