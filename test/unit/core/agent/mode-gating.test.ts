// Mode gating (issue 6 §4): plan mode and every subagent see only the tools they may use (schema
// level), and a write that reaches the registry anyway is refused with an informative error.
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMainAgent } from '../../../../src/core/agent/create-agent';
import { BUILTIN_SUBAGENTS } from '../../../../src/core/subagents/builtin-agents';
import { subagentTools } from '../../../../src/core/subagents/specs';
import { createBuiltinRegistry } from '../../../../src/core/tools/builtin-tools';
import { createInvokeSkillTool } from '../../../../src/core/skills/invoke-skill-tool';
import { SkillCatalog } from '../../../../src/core/skills/skill-catalog';
import { allToolResults, FakeProvider, type RecordedRequest } from '../../../fixtures/fake-provider';
import { recordingUI, systemOf } from '../../../helpers/hook-workspace';

const fixtureWorkspace = join(__dirname, '../../../../../test/fixtures/workspace');

function toolsOf(req: RecordedRequest): string[] {
  return (req.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name).sort();
}
const typeOf = (req: RecordedRequest) => /You are ([A-Za-z-]+)/.exec(systemOf(req))?.[1] ?? 'main';

describe('mode gating through the real factory', function () {
  this.timeout(30_000);
  const fake = new FakeProvider();
  // The factory adds invoke_skill to the builtin tools (the builtin skills are always there).
  const registry = createBuiltinRegistry().register(createInvokeSkillTool(new SkillCatalog([])));
  const writeTools = registry.names().filter((n) => registry.get(n)!.readOnly === false);
  let workspace: string;
  let home: string;

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    fake.setResponder((req) => ({ text: `${typeOf(req)} done` }));
    workspace = mkdtempSync(join(tmpdir(), 'opendev-gating-'));
    home = mkdtempSync(join(tmpdir(), 'opendev-gating-home-'));
    cpSync(fixtureWorkspace, workspace, { recursive: true });
  });

  const agent = () =>
    createMainAgent({
      roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'k', baseUrl: fake.openaiBaseUrl } },
      workspaceRoot: workspace,
      home,
      // Auto: nothing is refused for want of approval, so every refusal below is the mode's.
      approvalLevel: 'auto',
    });

  it('the registry knows which tools write (the gate has something to gate)', () => {
    for (const t of ['write_file', 'edit_file', 'run_command', 'batch_tool']) assert.ok(writeTools.includes(t), t);
  });

  it('plan mode: the schema has only read-only tools, and every write the model sends anyway is refused', async () => {
    const math = readFileSync(join(workspace, 'math.ts'), 'utf8');
    fake.enqueue(
      {
        toolCalls: [
          { id: 'w', name: 'write_file', arguments: { file_path: 'new.txt', content: 'x' } },
          { id: 'e', name: 'edit_file', arguments: { file_path: 'math.ts', old_content: 'return a - b;', new_content: 'return 0;' } },
          { id: 'r', name: 'run_command', arguments: { command: 'touch ran.txt' } },
          { id: 'b', name: 'batch_tool', arguments: { mode: 'serial', calls: [{ tool: 'read_file', args: { file_path: 'math.ts' } }, { tool: 'write_file', args: { file_path: 'batch.txt', content: 'x' } }] } },
          { id: 's', name: 'spawn_subagent', arguments: { subagent_type: 'Web-Generator', task: 'build a page in site/' } },
        ],
      },
      { text: 'Understood: planning only.' },
    );
    const main = await agent();
    main.setMode('plan');
    await main.runTurn('change things', recordingUI());
    await main.dispose();

    const first = fake.requests[0]!;
    const schema = toolsOf(first);
    assert.ok(schema.length > 0);
    for (const name of schema) assert.equal(registry.get(name)?.readOnly, true, `${name} in the plan-mode schema is read-only`);
    for (const name of writeTools) assert.ok(!schema.includes(name), `${name} is not in the plan-mode schema`);

    const results = new Map(allToolResults(fake.requests[1]!).map((r) => [r.toolCallId, r.content]));
    for (const id of ['w', 'e', 'r', 'b']) assert.match(results.get(id)!, /Error \(permission\): \w+ changes the workspace, which plan mode does not allow/, id);
    assert.match(results.get('s')!, /Web-Generator can change the workspace \(write_file, edit_file, run_command\), which plan mode does not allow\. In plan mode, spawn only Code-Explorer, Planner, Ask-User/);
    assert.equal(fake.requests.filter((r) => typeOf(r) === 'Web-Generator').length, 0, 'the Web-Generator never ran');
    assert.equal(existsSync(join(workspace, 'new.txt')), false);
    assert.equal(existsSync(join(workspace, 'batch.txt')), false);
    assert.equal(existsSync(join(workspace, 'ran.txt')), false);
    assert.equal(readFileSync(join(workspace, 'math.ts'), 'utf8'), math);
  });

  it('plan mode still spawns the Planner and read-only types; normal mode spawns any type', async () => {
    fake.enqueue({
      toolCalls: [
        { id: 'p', name: 'spawn_subagent', arguments: { subagent_type: 'Planner', task: 'plan it' } },
        { id: 'x', name: 'spawn_subagent', arguments: { subagent_type: 'Code-Explorer', task: 'look' } },
      ],
    });
    const main = await agent();
    main.setMode('plan');
    await main.runTurn('plan it', recordingUI());
    main.setMode('normal');
    fake.enqueue({ toolCalls: [{ id: 'g', name: 'spawn_subagent', arguments: { subagent_type: 'Web-Generator', task: 'build' } }] });
    await main.runTurn('now build it', recordingUI());
    await main.dispose();
    const ran = fake.requests.map(typeOf);
    for (const t of ['Planner', 'Code-Explorer', 'Web-Generator']) assert.ok(ran.includes(t), `${t} ran (${ran.join(', ')})`);
  });

  it('every subagent type sees exactly its own tools, and a read-only one is refused any write', async () => {
    const types = BUILTIN_SUBAGENTS.filter((s) => !s.uiOnly);
    fake.setResponder((req) => {
      const type = typeOf(req);
      if (type !== 'Code-Explorer' || allToolResults(req).length > 0) return { text: `${type} done` };
      // The explorer tries to write anyway (a model that ignores its schema).
      return {
        toolCalls: [
          { id: 'xw', name: 'write_file', arguments: { file_path: 'x.txt', content: 'x' } },
          { id: 'xr', name: 'run_command', arguments: { command: 'touch x-ran.txt' } },
          { id: 'xb', name: 'batch_tool', arguments: { mode: 'serial', calls: [{ tool: 'write_file', args: { file_path: 'xb.txt', content: 'x' } }] } },
        ],
      };
    });
    fake.enqueue({ toolCalls: types.map((s, i) => ({ id: `t${i}`, name: 'spawn_subagent', arguments: { subagent_type: s.name, task: 'work' } })) });
    const main = await agent();
    await main.runTurn('spawn everyone', recordingUI());
    await main.dispose();

    for (const spec of types) {
      const req = fake.requests.find((r) => typeOf(r) === spec.name);
      assert.ok(req, `${spec.name} ran`);
      const expected = subagentTools(spec).filter((t) => registry.get(t)).sort();
      assert.deepEqual(toolsOf(req), expected, `${spec.name}'s schema`);
    }
    const explorerAfter = fake.requests.find((r) => typeOf(r) === 'Code-Explorer' && allToolResults(r).length > 0)!;
    for (const r of allToolResults(explorerAfter)) assert.match(r.content, /Error \(permission\): \w+ is not available to the Code-Explorer agent/, r.toolCallId);
    for (const f of ['x.txt', 'x-ran.txt', 'xb.txt']) assert.equal(existsSync(join(workspace, f)), false, f);
  });
});
