import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCustomAgents, parseFrontmatter } from '../../../../src/core/subagents/custom-agents';
import { findSpec, subagentSystemPrompt, subagentTools } from '../../../../src/core/subagents/specs';

describe('custom agents', () => {
  let root: string;
  let workspace: string;
  let home: string;
  const write = (dir: string, name: string, text: string) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), text);
  };
  const projectDir = () => join(workspace, '.opendev', 'agents');
  const userDir = () => join(home, 'agents');

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-agents-'));
    workspace = join(root, 'ws');
    home = join(root, 'home');
    mkdirSync(workspace);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('returns nothing (and no warnings) when neither folder exists', () => {
    assert.deepEqual(loadCustomAgents({ workspaceRoot: workspace, home }), { specs: [], warnings: [] });
  });

  it('loads name, description, tools (list or comma string), model and the body as the prompt', () => {
    write(projectDir(), 'test-runner.md', '---\nname: Test-Runner\ndescription: Runs the tests and reports failures.\ntools: read_file, run_command\nmodel: small\n---\nYou run tests.\n');
    write(userDir(), 'docs.md', '---\ndescription: "Writes docs: clearly"\ntools:\n  - read_file\n  - write_file\n---\n\nYou write docs.\n');
    write(userDir(), 'scout.md', "---\nname: scout\ndescription: >\n  Looks around\n  quickly.\ntools: [read_file, 'search', spawn_subagent]\n---\nScout.\n");
    const { specs, warnings } = loadCustomAgents({ workspaceRoot: workspace, home });
    assert.deepEqual(warnings, []);
    const runner = findSpec(specs, 'test_runner')!;
    assert.equal(runner.description, 'Runs the tests and reports failures.');
    assert.deepEqual(runner.allowedTools, ['read_file', 'run_command']);
    assert.equal(runner.model, 'small');
    assert.equal(runner.source, 'project');
    assert.equal(runner.maxIterations, 15);
    assert.equal(subagentSystemPrompt(runner), 'You run tests.');
    assert.deepEqual(subagentTools(runner), ['read_file', 'run_command', 'task_complete']);
    const docs = findSpec(specs, 'docs')!;
    assert.equal(docs.description, 'Writes docs: clearly');
    assert.deepEqual(docs.allowedTools, ['read_file', 'write_file']);
    assert.equal(docs.source, 'user');
    const scout = findSpec(specs, 'scout')!;
    assert.equal(scout.description, 'Looks around quickly.');
    assert.deepEqual(scout.allowedTools, ['read_file', 'search', 'spawn_subagent']);
    assert.equal(scout.canSpawn, true);
  });

  it('lets a project agent win over a user agent of the same name', () => {
    write(userDir(), 'reviewer.md', '---\nname: reviewer\ndescription: user version\n---\nUser.\n');
    write(projectDir(), 'reviewer.md', '---\nname: Reviewer\ndescription: project version\n---\nProject.\n');
    const { specs } = loadCustomAgents({ workspaceRoot: workspace, home });
    assert.equal(specs.length, 1);
    assert.equal(specs[0]!.description, 'project version');
    assert.equal(specs[0]!.source, 'project');
  });

  it('reports invalid files as warnings naming the file, never throws, and keeps the valid ones', () => {
    write(projectDir(), 'a-no-frontmatter.md', 'Just a prompt.\n');
    write(projectDir(), 'b-unclosed.md', '---\nname: b\ndescription: x\nBody\n');
    write(projectDir(), 'c-garbage.md', '---\nname: c\nthis is not yaml\n---\nBody\n');
    write(projectDir(), 'd-no-description.md', '---\nname: d\n---\nBody\n');
    write(projectDir(), 'e-empty-body.md', '---\nname: e\ndescription: x\n---\n\n');
    write(projectDir(), 'f-bad-name.md', '---\nname: "rm -rf /"\ndescription: x\n---\nBody\n');
    write(projectDir(), 'g-todos.md', '---\nname: g\ndescription: x\ntools: read_file, write_todos\n---\nBody\n');
    write(projectDir(), 'h-ok.md', '---\nname: h\ndescription: fine\n---\nBody\n');
    write(projectDir(), 'notes.txt', 'ignored');
    const { specs, warnings } = loadCustomAgents({ workspaceRoot: workspace, home });
    assert.deepEqual(specs.map((s) => s.name), ['g', 'h']);
    assert.deepEqual(findSpec(specs, 'g')!.allowedTools, ['read_file']);
    const byFile = (f: string) => warnings.find((w) => w.includes(f)) ?? '';
    assert.match(byFile('a-no-frontmatter.md'), /missing YAML frontmatter/);
    assert.match(byFile('b-unclosed.md'), /not closed/);
    assert.match(byFile('c-garbage.md'), /invalid frontmatter: line 2 is not "key: value"/);
    assert.match(byFile('d-no-description.md'), /"description" is required/);
    assert.match(byFile('e-empty-body.md'), /body .* is empty/);
    assert.match(byFile('f-bad-name.md'), /invalid name/);
    assert.match(byFile('g-todos.md'), /write_todos is for the main agent only; ignored/);
    assert.equal(warnings.length, 7);
  });

  it('a project agent cannot claim what only built-in agents may: plan-mode safety, no model, an id prefix', () => {
    write(projectDir(), 'writer.md', '---\nname: Writer\ndescription: writes things\ntools: [write_file]\nplan_mode_safe: true\nui_only: true\nid_prefix: explorer\n---\nWrite.\n');
    const { specs, warnings } = loadCustomAgents({ workspaceRoot: workspace, home });
    assert.deepEqual(warnings, []);
    const writer = findSpec(specs, 'Writer')!;
    assert.deepEqual([writer.planModeSafe, writer.uiOnly, writer.idPrefix, writer.systemPrompt, writer.maxIterations], [undefined, undefined, undefined, 'Write.', 15]);
  });

  it('a value of the wrong shape is a warning naming the field, and the file is skipped', () => {
    write(projectDir(), 'listed.md', '---\nname: [a, b]\ndescription: x\n---\nBody\n');
    const { specs, warnings } = loadCustomAgents({ workspaceRoot: workspace, home });
    assert.deepEqual(specs, []);
    assert.match(warnings.join('\n'), /listed\.md: "name" /);
  });

  it('reads real YAML: numbers and booleans as text, max_iterations as a number, tools in three forms, extra maps ignored', () => {
    write(projectDir(), 'four.md', '---\nname: Four\ndescription: 42\nmodel: 4\nmax_iterations: 30\ntools: read_file, search\n---\nFour.\n');
    write(projectDir(), 'flow.md', '---\nname: Flow\ndescription: Use when: a flow list\ntools: [read_file, search]\nmetadata:\n  owner: me\n---\nFlow.\n');
    write(projectDir(), 'block.md', '---\nname: Block\ndescription: a block list\ntools:\n  - read_file\n  - search\nmax_iterations: "12"\n---\nBlock.\n');
    const { specs, warnings } = loadCustomAgents({ workspaceRoot: workspace, home });
    assert.deepEqual(warnings, []);
    const four = findSpec(specs, 'Four')!;
    assert.deepEqual([four.description, four.model, four.maxIterations], ['42', '4', 30]);
    for (const name of ['Four', 'Flow', 'Block']) assert.deepEqual(findSpec(specs, name)!.allowedTools, ['read_file', 'search'], name);
    assert.equal(findSpec(specs, 'Flow')!.description, 'Use when: a flow list');
    assert.equal(findSpec(specs, 'Block')!.maxIterations, 12);
  });

  it('a value YAML cannot read or of the wrong type is a warning naming the file and what is wrong', () => {
    write(projectDir(), 'a-map.md', '---\nname: a\ndescription:\n  text: x\n---\nA.\n');
    write(projectDir(), 'b-tools.md', '---\nname: b\ndescription: x\ntools: { read_file: true }\n---\nB.\n');
    write(projectDir(), 'c-tab.md', '---\nname: c\n\tdescription: x\n---\nC.\n');
    write(projectDir(), 'd-iterations.md', '---\nname: d\ndescription: x\nmax_iterations: 2.5\n---\nD.\n');
    const { specs, warnings } = loadCustomAgents({ workspaceRoot: workspace, home });
    const byFile = (f: string) => warnings.find((w) => w.includes(f)) ?? '';
    assert.match(byFile('a-map.md'), /a-map\.md: "description" /);
    assert.match(byFile('b-tools.md'), /b-tools\.md: "tools" must be a list or a comma-separated string/);
    assert.match(byFile('c-tab.md'), /c-tab\.md: invalid frontmatter: line 2: Tabs are not allowed as indentation/);
    assert.match(byFile('d-iterations.md'), /max_iterations must be a whole number from 1 to 200; using 15/);
    assert.deepEqual(specs.map((s) => s.name), ['d']);
  });

  it('uses OPENDEV_HOME for user agents by default', () => {
    const saved = process.env.OPENDEV_HOME;
    process.env.OPENDEV_HOME = home;
    try {
      write(userDir(), 'x.md', '---\ndescription: from home\n---\nX.\n');
      assert.equal(loadCustomAgents({ workspaceRoot: workspace }).specs[0]?.name, 'x');
    } finally {
      if (saved === undefined) delete process.env.OPENDEV_HOME;
      else process.env.OPENDEV_HOME = saved;
    }
  });

  it('parses the YAML subset: quotes, comments, inline and block lists, block scalars', () => {
    const parsed = parseFrontmatter("# comment\nname: 'It''s'\nmodel: gpt # trailing\nlist: []\nbody: |\n  line 1\n  line 2\n");
    assert.ok('values' in parsed);
    assert.deepEqual(parsed.values, { name: "It's", model: 'gpt', list: [], body: 'line 1\nline 2' });
    assert.ok('error' in parseFrontmatter('name: a\nname: b'));
    assert.ok('error' in parseFrontmatter('tools: [a, b'));
    assert.ok('error' in parseFrontmatter('name: "open'));
  });
});
