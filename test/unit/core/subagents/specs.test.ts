import * as assert from 'node:assert/strict';
import { BUILTIN_SUBAGENTS } from '../../../../src/core/subagents/builtin-agents';
import {
  EXPLORER_TOOLS,
  findSpec,
  mergeSpecs,
  subagentSystemPrompt,
  subagentTools,
  type SubagentSpec,
} from '../../../../src/core/subagents/specs';

const TODO_TOOLS = ['write_todos', 'update_todo', 'complete_todo', 'list_todos'];
const tools = (name: string) => subagentTools(findSpec(BUILTIN_SUBAGENTS, name)!);

describe('subagent specs (appendix G)', () => {
  it('has the eight builtin types with the paper\'s names, a 15-call budget and a description', () => {
    assert.deepEqual(BUILTIN_SUBAGENTS.map((s) => s.name), [
      'Code-Explorer', 'Planner', 'PR-Reviewer', 'Security-Reviewer', 'Web-Clone', 'Web-Generator', 'Project-Init', 'Ask-User',
    ]);
    for (const spec of BUILTIN_SUBAGENTS) {
      assert.ok(spec.description.length > 40, spec.name);
      if (!spec.uiOnly) assert.equal(spec.maxIterations, 15, spec.name);
    }
  });

  it('never gives a subagent a todo tool or present_plan, and always task_complete', () => {
    for (const spec of BUILTIN_SUBAGENTS) {
      const list = subagentTools(spec);
      for (const t of [...TODO_TOOLS, 'present_plan']) assert.ok(!list.includes(t), `${spec.name} has ${t}`);
      if (!spec.uiOnly) assert.ok(list.includes('task_complete'), `${spec.name} lacks task_complete`);
    }
    const sneaky: SubagentSpec = { name: 'Sneaky', description: 'd', allowedTools: ['read_file', 'write_todos', 'present_plan', 'spawn_subagent'], maxIterations: 15, canSpawn: false };
    assert.deepEqual(subagentTools(sneaky), ['read_file', 'task_complete']);
  });

  it('matches the capability matrix', () => {
    assert.deepEqual(tools('Code-Explorer'), [...EXPLORER_TOOLS, 'task_complete']);
    for (const name of ['PR-Reviewer', 'Security-Reviewer']) assert.deepEqual(tools(name), [...EXPLORER_TOOLS, 'run_command', 'task_complete']);
    assert.deepEqual(tools('Web-Clone'), ['capture_web_screenshot', 'analyze_image', 'write_file', 'read_file', 'run_command', 'list_files', 'task_complete']);
    assert.deepEqual(tools('Web-Generator'), ['write_file', 'edit_file', 'run_command', 'list_files', 'read_file', 'task_complete']);
    assert.deepEqual(tools('Project-Init'), ['read_file', 'search', 'list_files', 'run_command', 'write_file', 'edit_file', 'task_complete']);
    assert.deepEqual(tools('Ask-User'), []);
    assert.equal(findSpec(BUILTIN_SUBAGENTS, 'Ask-User')!.uiOnly, true);
  });

  it('gives the Planner read-only tools plus write_file, edit_file, spawn_subagent, ask_user, but no run_command', () => {
    const planner = tools('Planner');
    for (const t of [...EXPLORER_TOOLS, 'write_file', 'edit_file', 'spawn_subagent', 'ask_user', 'task_complete']) assert.ok(planner.includes(t), t);
    for (const t of ['run_command', 'kill_process', 'present_plan', 'write_todos']) assert.ok(!planner.includes(t), t);
    assert.equal(findSpec(BUILTIN_SUBAGENTS, 'Planner')!.canSpawn, true);
    assert.deepEqual(findSpec(BUILTIN_SUBAGENTS, 'Planner')!.spawnableTypes, ['Code-Explorer']);
    assert.ok(BUILTIN_SUBAGENTS.filter((s) => s.canSpawn).every((s) => s.name === 'Planner'));
  });

  it('finds types case-insensitively in snake, kebab and spaced forms', () => {
    for (const name of ['code-explorer', 'CODE_EXPLORER', 'Code Explorer', 'codeexplorer']) assert.equal(findSpec(BUILTIN_SUBAGENTS, name)?.name, 'Code-Explorer');
    assert.equal(findSpec(BUILTIN_SUBAGENTS, 'explorer'), undefined);
  });

  it('loads each builtin system prompt from templates/subagents', () => {
    for (const spec of BUILTIN_SUBAGENTS.filter((s) => !s.uiOnly)) {
      const prompt = subagentSystemPrompt(spec);
      assert.ok(prompt.length > 300, spec.name);
      assert.ok(!prompt.startsWith('---'), `${spec.name}: frontmatter must be stripped`);
      assert.match(prompt, /task_complete/, spec.name);
    }
    const planner = subagentSystemPrompt(findSpec(BUILTIN_SUBAGENTS, 'Planner')!);
    for (const heading of ['## Goal', '## Context', '## Files to modify', '## Files to create', '## Implementation steps', '## Verification', '## Risks']) {
      assert.ok(planner.includes(heading), heading);
    }
    assert.match(planner, /plan file path/);
    const explorer = subagentSystemPrompt(findSpec(BUILTIN_SUBAGENTS, 'Code-Explorer')!);
    assert.match(explorer, /Stop conditions/);
    assert.match(explorer, /Anti-loop rules/);
    assert.match(explorer, /Never read the same file region twice/);
  });

  it('uses a custom agent\'s own prompt, and the generic prompt when a template is missing', () => {
    assert.equal(subagentSystemPrompt({ name: 'X', description: 'd', systemPrompt: 'Be X.', allowedTools: undefined, maxIterations: 15, canSpawn: false }), 'Be X.');
    const fallback = subagentSystemPrompt({ name: 'Ghost', description: 'Haunts things.', systemPromptTemplate: 'subagents/nope.md', allowedTools: [], maxIterations: 15, canSpawn: false });
    assert.match(fallback, /You are Ghost, a subagent of OpenDev\. Haunts things\./);
  });

  it('defaults custom agents without tools to the read-only set', () => {
    const list = subagentTools({ name: 'X', description: 'd', allowedTools: undefined, maxIterations: 15, canSpawn: false });
    assert.ok(list.includes('read_file') && list.includes('search'));
    assert.ok(!list.includes('write_file') && !list.includes('run_command') && !list.includes('spawn_subagent'));
  });

  it('lets later spec lists replace earlier ones by normalized name', () => {
    const custom: SubagentSpec = { name: 'code_explorer', description: 'mine', systemPrompt: 'p', allowedTools: ['read_file'], maxIterations: 5, canSpawn: false };
    const merged = mergeSpecs(BUILTIN_SUBAGENTS, [custom]);
    assert.equal(merged.length, BUILTIN_SUBAGENTS.length);
    assert.equal(findSpec(merged, 'Code-Explorer')!.description, 'mine');
  });
});
