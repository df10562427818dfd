import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolDispatcher } from '../../../../src/core/agent/tool-dispatcher';
import { ProcessManager } from '../../../../src/core/process/process-manager';
import { BUILTIN_SUBAGENTS } from '../../../../src/core/subagents/builtin-agents';
import { SubagentManager } from '../../../../src/core/subagents/subagent-manager';
import { TodoStore } from '../../../../src/core/todos/todo-store';
import { createBuiltinRegistry } from '../../../../src/core/tools/builtin-tools';
import type { ToolExecutionContext, ToolResult } from '../../../../src/core/tools/tool';
import { silentUI, type UICallback } from '../../../../src/core/ui';
import { toolContext } from '../../../helpers/tool-context';

const MATH = 'export const PI = 3.14;\nexport function add(a, b) {\n  return a + b;\n}\n';

const PLAN = `# Plan: multiply
## Goal
Add multiply.
## Context
math.ts has add.
## Files to modify
- math.ts
## Files to create
none
## Implementation steps
1. Add multiply to math.ts
2. Test it
## Verification
Run the tests.
## Risks
None.
`;

/**
 * The one-line summary of every built-in tool, run for real in a temporary workspace: the formats
 * the paper gives (read → lines and chars, search → match count, list → entry count, command →
 * verbatim when short else line count, errors → their class), always one line of at most 200 chars.
 */
describe('tool result summaries (every built-in tool, for real)', function () {
  this.timeout(30_000);
  const registry = createBuiltinRegistry();
  let root: string;
  let ctx: ToolExecutionContext;
  let processes: ProcessManager;

  // Through the dispatcher, as the agent runs them (batch_tool needs it).
  const dispatcher = new ToolDispatcher(registry);
  const call = async (name: string, args: unknown, c: ToolExecutionContext = ctx): Promise<ToolResult> =>
    (await dispatcher.dispatch([{ id: 'c1', name, arguments: typeof args === 'string' ? args : JSON.stringify(args) }], c))[0]!;

  /** The summary, checked to be one line of 1–200 characters that starts with its outcome mark. */
  const summaryOf = (r: ToolResult): string => {
    assert.match(r.summary, /^[✓✗⧗✎] /u, `starts with ✓, ✗, ⧗ or ✎: ${r.summary}`);
    assert.equal(r.summary.startsWith('✗'), !r.ok, `✗ exactly when the call failed: ${r.summary}`);
    assert.doesNotMatch(r.summary, /\n/, `one line: ${JSON.stringify(r.summary)}`);
    assert.ok(r.summary.length > 0 && r.summary.length <= 200, `${r.summary.length} chars: ${r.summary}`);
    return r.summary;
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-summaries-'));
    writeFileSync(join(root, 'math.ts'), MATH);
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'util.ts'), 'export const add = (a, b) => a + b;\n');
    processes = new ProcessManager({ tasksDir: join(root, '.tasks'), limits: { initialWindowMs: 1500, killGraceMs: 1000, stopGraceMs: 500 } });
    const ui: UICallback = {
      ...silentUI,
      askUser: async () => ({ answers: [{ header: 'Database', selected: ['Postgres'] }] }),
      reviewPlan: async () => ({ action: 'approve' }),
    };
    const subagents = new SubagentManager({
      specs: BUILTIN_SUBAGENTS,
      ui: silentUI,
      run: async () => ({ status: 'completed', summary: 'add is defined in math.ts, line 2.\nMore detail follows.', history: null }),
    });
    ctx = toolContext({ workspaceRoot: root, ui, todos: new TodoStore(), processes, subagents });
  });
  afterEach(async () => {
    await processes.shutdown();
    rmSync(root, { recursive: true, force: true });
  });

  it('read_file: "✓ Read <path> (<lines> lines, <chars> chars)" with the file\'s own counts', async () => {
    assert.equal(summaryOf(await call('read_file', { file_path: 'math.ts' })), `✓ Read math.ts (4 lines, ${MATH.trimEnd().length} chars)`);
    writeFileSync(join(root, 'long.txt'), Array.from({ length: 1500 }, (_, i) => `row ${i}`).join('\n'));
    assert.match(summaryOf(await call('read_file', { file_path: 'long.txt' })), /^✓ Read long\.txt \(1,500 lines, [\d,]+ chars\)$/);
    assert.match(summaryOf(await call('read_file', { file_path: 'missing.ts' })), /^✗ not_found: missing\.ts does not exist/);
    assert.match(summaryOf(await call('read_file', { file_path: '../outside.ts' })), /^✗ permission: /);
  });

  it('a summary with a very long path is still one line of at most 200 characters', async () => {
    let folder = root;
    for (let i = 0; i < 5; i++) {
      folder = join(folder, `a-rather-long-folder-name-number-${i}-for-testing-the-summary-limit`);
      mkdirSync(folder);
    }
    writeFileSync(join(folder, 'file.ts'), 'x\n');
    const summary = summaryOf(await call('read_file', { file_path: join(folder, 'file.ts') }));
    assert.equal(summary.length, 200);
    assert.ok(summary.startsWith('✓ Read a-rather-long') && summary.endsWith('…'));
  });

  it('search: the match count; list_files: the entry count', async () => {
    assert.match(summaryOf(await call('search', { pattern: 'add' })), /^✓ 2 matches in 2 files\b/);
    assert.match(summaryOf(await call('search', { pattern: 'multiply' })), /^✓ 0 matches\b/);
    assert.match(summaryOf(await call('search', { pattern: 'add', path: 'nowhere' })), /^✗ not_found: /);
    assert.equal(summaryOf(await call('list_files', {})), '✓ Listed . (3 entries)');
    assert.equal(summaryOf(await call('list_files', { pattern: '*.ts' })), '✓ 2 matches for *.ts in .');
    assert.match(summaryOf(await call('list_files', { path: 'nowhere' })), /^✗ not_found: /);
  });

  it('run_command: short output verbatim (line breaks as ↵), longer output as a line count, failures with their exit', async () => {
    assert.equal(summaryOf(await call('run_command', { command: 'echo hi' })), '✓ hi');
    assert.equal(summaryOf(await call('run_command', { command: 'printf "a\\nb\\n"' })), '✓ a ↵ b');
    assert.equal(summaryOf(await call('run_command', { command: 'seq 1 240' })), '✓ exit 0, 240 lines');
    assert.equal(summaryOf(await call('run_command', { command: 'printf "%0150d\\n" 0' })), '✓ exit 0, 1 line');
    assert.equal(summaryOf(await call('run_command', { command: 'true' })), '✓ exit 0, no output');
    assert.equal(summaryOf(await call('run_command', { command: 'echo boom >&2; exit 3' })), '✗ exit 3: boom');
    assert.match(summaryOf(await call('run_command', { command: 'sudo true' })), /^✗ permission: Refused by the danger rule/);
  });

  it('background tasks: started, listed, their output and their end', async () => {
    const started = await call('run_command', { command: 'echo ready; sleep 30', background: true });
    assert.match(summaryOf(started), /^✓ background task [0-9a-f]{7} running: echo ready; sleep 30$/);
    const id = /Task ([0-9a-f]{7}) ·/.exec(started.output)![1]!;
    assert.equal(summaryOf(await call('list_processes', {})), '✓ 1 task, 1 running');
    assert.match(summaryOf(await call('get_process_output', { task_id: id })), new RegExp(`^✓ ${id} RUNNING, 1 line$`));
    assert.equal(summaryOf(await call('kill_process', { task_id: id })), `✓ ${id} killed`);
    assert.match(summaryOf(await call('get_process_output', { task_id: 'nope' })), /^✗ not_found: /);
  });

  it('write_file and edit_file say what changed; their failures carry their class', async () => {
    assert.equal(summaryOf(await call('write_file', { file_path: 'notes.md', content: 'one\ntwo\n' })), '✓ Created notes.md (2 lines)');
    assert.match(summaryOf(await call('write_file', { file_path: 'notes.md', content: 'again' })), /^✗ other: notes\.md already exists/);
    await call('read_file', { file_path: 'math.ts' });
    assert.equal(summaryOf(await call('edit_file', { file_path: 'math.ts', old_content: 'a + b', new_content: 'b + a' })), '✓ Edited math.ts (+1 −1)');
    assert.match(summaryOf(await call('edit_file', { file_path: 'math.ts', old_content: 'not there at all', new_content: 'x' })), /^✗ edit_mismatch: /);
  });

  it('batch_tool counts its calls and failures', async () => {
    const calls = [
      { tool: 'read_file', args: { file_path: 'math.ts' } },
      { tool: 'read_file', args: { file_path: 'missing.ts' } },
    ];
    assert.equal(summaryOf(await call('batch_tool', { mode: 'parallel', calls })), '✗ Batch: 2 calls (parallel), 1 failed');
  });

  it('todos, ask_user, plans, subagents and task_complete', async () => {
    assert.match(summaryOf(await call('write_todos', { todos: [{ title: 'Add multiply' }, { title: 'Test it' }] })), /^✓ 2 todos\b/);
    assert.match(summaryOf(await call('update_todo', { id: 1, status: 'doing' })), /^✓ Todo 1 → doing: Add multiply$/);
    assert.match(summaryOf(await call('complete_todo', { id: 1 })), /^✓ Done 1: Add multiply — /);
    assert.match(summaryOf(await call('list_todos', {})), /^✓ 2 todos\b/);
    assert.match(summaryOf(await call('update_todo', { id: 9, status: 'done' })), /^✗ other: No todo "9"/);

    const question = { header: 'Database', question: 'Which database?', options: [{ label: 'Postgres', description: 'the server one' }, { label: 'SQLite', description: 'a file' }], multiSelect: false };
    assert.equal(summaryOf(await call('ask_user', { questions: [question] })), '✓ User answered Database: Postgres');
    assert.match(summaryOf(await call('ask_user', { questions: [question] }, { ...ctx, ui: silentUI })), /^✗ other: /);

    mkdirSync(join(root, '.opendev', 'plans'), { recursive: true });
    writeFileSync(join(root, '.opendev', 'plans', 'multiply.md'), PLAN);
    assert.equal(summaryOf(await call('present_plan', { plan_file_path: '.opendev/plans/multiply.md' })), '✓ Plan approved: 2 todos from .opendev/plans/multiply.md');
    assert.match(summaryOf(await call('present_plan', { plan_file_path: '.opendev/plans/none.md' })), /^✗ not_found: /);

    assert.match(summaryOf(await call('spawn_subagent', { subagent_type: 'Code-Explorer', task: 'Where is add?' })), /^✓ Code-Explorer \S+: add is defined in math\.ts, line 2\.$/);
    assert.match(summaryOf(await call('spawn_subagent', { subagent_type: 'Nobody', task: 'x' })), /^✗ not_found: /);
    assert.match(summaryOf(await call('get_subagent_output', { agent_id: 'nope' })), /^✗ not_found: /);

    assert.equal(summaryOf(await call('task_complete', { summary: 'Added multiply.\nAll tests pass.', status: 'success' })), '✓ Task complete (success): Added multiply.');
  });

  it('argument and dispatch errors are one line with their class, however long the message', async () => {
    assert.match(summaryOf(await call('read_file', { file_path: 42 })), /^✗ other: Invalid arguments for read_file: /);
    assert.match(summaryOf(await call('read_file', '{not json')), /^✗ other: The arguments for read_file are not valid JSON/);
    const unknown = summaryOf(await call('no_such_tool', {}));
    assert.match(unknown, /^✗ not_found: Unknown tool "no_such_tool"/);
    assert.equal(unknown.length, 200, 'the list of available tools is cut at 200 characters');
  });
});
