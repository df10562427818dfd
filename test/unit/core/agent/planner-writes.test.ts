// Plan mode means no changes (issue 13 §7): the Planner writes its plan file and nothing else, and in
// plan mode no type that can write is spawned, whoever asks (the main agent, the Planner) and however
// (foreground, background, a custom agent). Through the real factory, against the fake provider, at
// the Auto level so that every refusal below is the mode's or the Planner's, never the approval step's.
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMainAgent } from '../../../../src/core/agent/create-agent';
import { allToolResults, FakeProvider, type RecordedRequest, type ScriptedTurn } from '../../../fixtures/fake-provider';
import { recordingUI, systemOf } from '../../../helpers/hook-workspace';

const fixtureWorkspace = join(__dirname, '../../../../../test/fixtures/workspace');
/** Which agent sent a request: a subagent's prompt starts "You are <type>", the main agent is OpenDev itself. */
const typeOf = (req: RecordedRequest) => {
  const name = /You are ([A-Za-z-]+)/.exec(systemOf(req))?.[1];
  return name === undefined || name === 'OpenDev' ? 'main' : name;
};

const PLAN = '# Plan: multiply\n## Goal\nAdd multiply.\n## Context\nmath.ts\n## Files to modify\n- math.ts\n## Files to create\nNone.\n## Implementation steps\n1. Add multiply\n## Verification\nCall it.\n## Risks\nNone.\n';

describe('plan mode changes nothing: the Planner writes only its plan', function () {
  this.timeout(30_000);
  const fake = new FakeProvider();
  let workspace: string;
  let home: string;

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    workspace = mkdtempSync(join(tmpdir(), 'opendev-planner-'));
    home = mkdtempSync(join(tmpdir(), 'opendev-planner-home-'));
    cpSync(fixtureWorkspace, workspace, { recursive: true });
  });

  const agent = () =>
    createMainAgent({
      roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'k', baseUrl: fake.openaiBaseUrl } },
      workspaceRoot: workspace,
      home,
      approvalLevel: 'auto',
    });

  /** The tool results the given agent type got back, by call id. */
  const resultsOf = (type: string) => new Map(fake.requests.filter((r) => typeOf(r) === type).flatMap((r) => allToolResults(r)).map((r) => [r.toolCallId, r.content]));

  it('in plan mode the Planner cannot create or edit a source file, and writes (then revises) its plan', async () => {
    const math = readFileSync(join(workspace, 'math.ts'), 'utf8');
    let plannerCalls = 0;
    fake.setResponder((req): ScriptedTurn => {
      if (typeOf(req) === 'Planner') {
        plannerCalls++;
        if (plannerCalls === 1) return { toolCalls: [{ id: 'read', name: 'read_file', arguments: { file_path: 'math.ts' } }] };
        if (plannerCalls === 2) {
          return {
            toolCalls: [
              { id: 'create', name: 'write_file', arguments: { file_path: 'src/multiply.ts', content: 'export const multiply = (a: number, b: number) => a * b;\n', create_dirs: true } },
              { id: 'edit', name: 'edit_file', arguments: { file_path: 'math.ts', old_content: 'return a - b;', new_content: 'return a * b;' } },
              { id: 'notes', name: 'write_file', arguments: { file_path: 'docs/plan-notes.md', content: 'notes', create_dirs: true } },
              { id: 'nested', name: 'write_file', arguments: { file_path: '.opendev/plans/sub/deep.md', content: PLAN, create_dirs: true } },
              { id: 'plan', name: 'write_file', arguments: { file_path: '.opendev/plans/multiply.md', content: PLAN, create_dirs: true } },
            ],
          };
        }
        if (plannerCalls === 3) return { toolCalls: [{ id: 'revise', name: 'edit_file', arguments: { file_path: '.opendev/plans/multiply.md', old_content: '1. Add multiply', new_content: '1. Add multiply(a, b) to math.ts' } }] };
        return { toolCalls: [{ name: 'task_complete', arguments: { summary: 'Plan written to .opendev/plans/multiply.md', status: 'success' } }] };
      }
      return allToolResults(req).length === 0
        ? { toolCalls: [{ id: 'p', name: 'spawn_subagent', arguments: { subagent_type: 'Planner', task: 'plan multiply' } }] }
        : { text: 'Planned.' };
    });
    const main = await agent();
    main.setMode('plan');
    await main.runTurn('plan adding multiply', recordingUI());
    await main.dispose();

    const results = resultsOf('Planner');
    for (const id of ['create', 'edit', 'notes', 'nested']) {
      assert.match(results.get(id)!, /^Error \(permission\): .*the Planner writes only its plan file, a markdown file directly in \.opendev\/plans\//, id);
    }
    assert.equal(existsSync(join(workspace, 'src/multiply.ts')), false, 'no source file was created');
    assert.equal(existsSync(join(workspace, 'docs/plan-notes.md')), false);
    assert.equal(existsSync(join(workspace, '.opendev/plans/sub/deep.md')), false);
    assert.equal(readFileSync(join(workspace, 'math.ts'), 'utf8'), math, 'math.ts is unchanged');
    assert.doesNotMatch(results.get('plan')!, /^Error/);
    assert.doesNotMatch(results.get('revise')!, /^Error/);
    assert.match(readFileSync(join(workspace, '.opendev/plans/multiply.md'), 'utf8'), /1\. Add multiply\(a, b\) to math\.ts/);
  });

  it('the Planner is held to its plan file in normal mode too, and a plans folder that links elsewhere is no way out', async () => {
    mkdirSync(join(workspace, '.opendev'), { recursive: true });
    mkdirSync(join(workspace, 'src'));
    // A repository may ship .opendev/plans as a link into its sources.
    symlinkSync(join(workspace, 'src'), join(workspace, '.opendev/plans'));
    fake.setResponder((req): ScriptedTurn => {
      if (typeOf(req) === 'Planner') {
        return allToolResults(req).length === 0
          ? {
              toolCalls: [
                { id: 'linked', name: 'write_file', arguments: { file_path: '.opendev/plans/index.md', content: PLAN } },
                { id: 'cmd', name: 'run_command', arguments: { command: 'touch ran.txt' } },
              ],
            }
          : { toolCalls: [{ name: 'task_complete', arguments: { summary: 'done', status: 'success' } }] };
      }
      return allToolResults(req).length === 0 ? { toolCalls: [{ id: 'p', name: 'spawn_subagent', arguments: { subagent_type: 'Planner', task: 'plan it' } }] } : { text: 'ok' };
    });
    const main = await agent();
    await main.runTurn('make a plan for the tests', recordingUI());
    await main.dispose();

    const results = resultsOf('Planner');
    assert.match(results.get('linked')!, /^Error \(permission\): .*the Planner writes only its plan file/);
    assert.equal(existsSync(join(workspace, 'src/index.md')), false, 'nothing was written through the link');
    assert.match(results.get('cmd')!, /^Error \(permission\)/);
    assert.equal(existsSync(join(workspace, 'ran.txt')), false);
  });

  it('in plan mode a writing type is refused: a custom agent, in the background, and when the Planner spawns it', async () => {
    // A user's custom agent that can write, and one that replaces Code-Explorer with a writing version.
    mkdirSync(join(home, 'agents'), { recursive: true });
    writeFileSync(join(home, 'agents', 'fixer.md'), '---\nname: Fixer\ndescription: Fixes things.\ntools: read_file, edit_file\n---\nYou are Fixer: you fix things.\n');
    writeFileSync(join(home, 'agents', 'explorer.md'), '---\nname: Code-Explorer\ndescription: Explores, and tidies up.\ntools: read_file, write_file\n---\nYou are Code-Explorer: you explore.\n');
    fake.setResponder((req): ScriptedTurn => {
      const type = typeOf(req);
      if (type === 'Planner') {
        return allToolResults(req).length === 0
          ? { toolCalls: [{ id: 'pe', name: 'spawn_subagent', arguments: { subagent_type: 'Code-Explorer', task: 'look, and tidy' } }] }
          : { toolCalls: [{ name: 'task_complete', arguments: { summary: 'done', status: 'success' } }] };
      }
      if (type !== 'main') return { toolCalls: [{ id: 'w', name: 'write_file', arguments: { file_path: `${type}.txt`, content: 'x' } }] };
      return allToolResults(req).length === 0
        ? {
            toolCalls: [
              { id: 'custom', name: 'spawn_subagent', arguments: { subagent_type: 'fixer', task: 'fix it' } },
              { id: 'bg', name: 'spawn_subagent', arguments: { subagent_type: 'Web-Generator', task: 'build', background: true } },
              { id: 'planner', name: 'spawn_subagent', arguments: { subagent_type: 'Planner', task: 'plan' } },
            ],
          }
        : { text: 'ok' };
    });
    const main = await agent();
    main.setMode('plan');
    await main.runTurn('plan it', recordingUI());
    await main.dispose();

    const results = resultsOf('main');
    assert.match(results.get('custom')!, /^Error \(permission\): Fixer can change the workspace \(edit_file\), which plan mode does not allow/);
    assert.match(results.get('bg')!, /^Error \(permission\): Web-Generator can change the workspace/);
    assert.match(resultsOf('Planner').get('pe')!, /^Error \(permission\): Code-Explorer can change the workspace \(write_file\)/);
    const ran = fake.requests.map(typeOf);
    for (const t of ['Fixer', 'Web-Generator', 'Code-Explorer']) assert.ok(!ran.includes(t), `${t} never ran (${ran.join(', ')})`);
    for (const f of ['Fixer.txt', 'Web-Generator.txt', 'Code-Explorer.txt']) assert.equal(existsSync(join(workspace, f)), false, f);
  });
});
