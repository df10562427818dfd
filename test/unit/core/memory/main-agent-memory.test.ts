import * as assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMainAgent } from '../../../../src/core/agent/create-agent';
import type { MainAgentOptions } from '../../../../src/core/agent/main-agent-options';
import type { CallPurpose } from '../../../../src/core/llm/call-purpose';
import { DEFAULT_REFLECT_EVERY } from '../../../../src/core/config/memory-cadence';
import { applyDelta } from '../../../../src/core/memory/playbook/delta';
import { playbookPath, PlaybookStore } from '../../../../src/core/memory/playbook/playbook-store';
import { silentUI } from '../../../../src/core/ui';
import { FakeProvider, type RecordedRequest, type ScriptedTurn } from '../../../fixtures/fake-provider';
import { kindOf, systemText, tempHome } from './memory-fixtures';

const fixtureWorkspace = join(__dirname, '../../../../../test/fixtures/workspace');
const LESSON = 'math.ts keeps its exports sorted alphabetically.';
const isExplorer = (req: RecordedRequest) => /You are Code-Explorer/.test(systemText(req));
/** A read of math.ts that differs from the others (the same call repeated would be a doom loop). */
const distinctRead = (i: number): ScriptedTurn => ({ toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts', max_lines: i + 1 } }] });

describe('memory wired into createMainAgent', function () {
  this.timeout(30_000);
  const fake = new FakeProvider();
  let workspace: string;
  let home: ReturnType<typeof tempHome>;
  const create = (playbookLearning?: boolean, more: Partial<MainAgentOptions> = {}) =>
    createMainAgent({ roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'k', baseUrl: fake.openaiBaseUrl } }, workspaceRoot: workspace, home: home.home, playbookLearning, ...more });

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

  it('learns only when playbookLearning is on (at the paper’s cadence, every 5 messages, by setting)', async () => {
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
    const learning = await create(true, { playbookReflectEvery: 5 });
    await learning.runTurn('read math.ts twice', silentUI);
    await learning.dispose();
    assert.equal(fake.requests.filter((r) => kindOf(r) === 'reflector').length, 1);
    assert.equal(JSON.parse(readFileSync(playbookPath(workspace, home.home), 'utf8')).bullets[0].helpful, 1);
  });

  it('by default the playbook reflects in batches of 40 messages: none after a short task, one when a long one has gathered them', async () => {
    const purposes: CallPurpose[] = [];
    const reads = (n: number): ScriptedTurn[] => Array.from({ length: n }, (_, i) => distinctRead(i));
    const turns = [...reads(2), { text: 'Read it twice.' }, ...reads(20), { text: 'Read it twenty times.' }];
    fake.setResponder((req) => (kindOf(req) === 'reflector' ? { text: JSON.stringify({ bullet_tags: [], insights: [] }) } : turns.shift() ?? { text: 'extra' }));
    const agent = await create(true, { onModelCall: (c) => purposes.push(c.purpose!) });
    await agent.runTurn('read math.ts twice', silentUI);
    assert.equal(purposes.filter((p) => p === 'reflector').length, 0, `a short task (${agent.messages.length} messages) makes no reflection`);
    await agent.runTurn('read math.ts twenty times', silentUI);
    await agent.dispose();
    assert.ok(agent.messages.length >= DEFAULT_REFLECT_EVERY && agent.messages.length < 2 * DEFAULT_REFLECT_EVERY, `${agent.messages.length} messages`);
    assert.equal(purposes.filter((p) => p === 'reflector').length, 1, 'one reflection for the whole batch');
    assert.equal(fake.requests.length, purposes.length, 'every request is accounted for');
  });

  it('by default the episodic summary for thinking is made again after 10 new messages, not every 5 as in the paper', async () => {
    /** The conversation lengths at which one long task's thinking calls got a fresh summary. */
    const summaries = async (more: Partial<MainAgentOptions>): Promise<number[]> => {
      fake.reset();
      const at: number[] = [];
      const turns: ScriptedTurn[] = Array.from({ length: 24 }, (_, i) => distinctRead(i));
      fake.setResponder((req) => {
        if (kindOf(req) === 'summariser') {
          // The transcript numbers the messages it summarises: the last number is how many it saw.
          at.push(Number([...JSON.stringify(req.body.messages).matchAll(/\[(\d+)\] /g)].at(-1)![1]));
          return { text: 'The user asked for many reads of math.ts.' };
        }
        if (kindOf(req) === 'thinking') return { text: 'Read it again.' };
        return turns.shift() ?? { text: 'Done.' };
      });
      const agent = await create(false, { thinkingLevel: 'low', thinkingCadence: 'every-step', ...more });
      await agent.runTurn('read math.ts until I say stop', silentUI);
      await agent.dispose();
      return at;
    };
    const gaps = (at: number[]) => at.slice(1).map((n, i) => n - at[i]!);
    const paper = await summaries({ episodicSummaryEvery: 5 });
    const byDefault = await summaries({});
    assert.ok(gaps(paper).some((g) => g < 10), `the paper's cadence: summaries at ${paper.join(', ')} messages`);
    assert.ok(byDefault.length >= 3 && gaps(byDefault).every((g) => g >= 10), `by default: summaries at ${byDefault.join(', ')} messages`);
    assert.ok(byDefault.length < paper.length, `${byDefault.length} summaries by default, ${paper.length} at the paper's cadence`);
  });
});
