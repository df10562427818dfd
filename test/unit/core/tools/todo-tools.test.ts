import * as assert from 'node:assert/strict';
import type { Todo } from '../../../../src/core/todo';
import { TodoStore } from '../../../../src/core/todos/todo-store';
import { harnessTools } from '../../../../src/core/tools/harness-tools';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { ToolExecutionContext } from '../../../../src/core/tools/tool';
import { toolContext } from '../../../helpers/tool-context';

function harnessRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  for (const tool of harnessTools()) registry.register(tool);
  return registry;
}

describe('todo tools and task_complete', () => {
  const registry = harnessRegistry();
  let todos: TodoStore;
  let ctx: ToolExecutionContext;
  const call = (name: string, args: unknown, c = ctx) =>
    registry.execute({ id: 'c1', name, arguments: typeof args === 'string' ? args : JSON.stringify(args) }, c);

  beforeEach(() => {
    todos = new TodoStore();
    ctx = toolContext({ workspaceRoot: process.cwd(), todos });
  });

  it('registers every harness tool with a description from templates/ and an object schema', () => {
    const names = registry.names().sort();
    assert.deepEqual(names, [
      'ask_user', 'complete_todo', 'get_subagent_output', 'list_todos', 'present_plan',
      'spawn_subagent', 'task_complete', 'update_todo', 'write_todos',
    ]);
    for (const schema of registry.schemas()) {
      assert.ok(schema.description.length > 80, `${schema.name} needs a real description`);
      assert.notEqual(schema.description, schema.name);
      assert.equal((schema.parameters as { type: string }).type, 'object');
    }
    assert.equal(registry.get('list_todos')!.readOnly, true);
    assert.equal(registry.get('write_todos')!.readOnly, false);
  });

  it('write_todos replaces the list and reports counts; the store notifies listeners', async () => {
    const seen: Array<readonly Todo[]> = [];
    todos.onChange((t) => seen.push(t));
    const r = await call('write_todos', {
      todos: [
        { title: 'Read the code', description: 'find the handler', status: 'done' },
        { title: 'Fix the bug', description: 'null check', status: 'doing' },
        { title: 'Add a test', description: 'regression test', status: 'todo' },
      ],
    });
    assert.equal(r.ok, true, r.output);
    assert.equal(r.summary, '✓ 3 todos (1 doing, 1 todo, 1 done)');
    assert.match(r.output, /\[>\] 2\. Fix the bug \[doing\]/);
    assert.equal(seen.length, 1);
    assert.deepEqual(todos.list().map((t) => t.id), ['2', '3', '1']);
  });

  it('write_todos defaults status to todo and ignores extra properties', async () => {
    const r = await call('write_todos', { todos: [{ title: 'a', priority: 'high' }], why: 'x' });
    assert.equal(r.ok, true, r.output);
    assert.equal(todos.list()[0]!.status, 'todo');
  });

  it('write_todos: bad status, missing title, two doing → clear errors', async () => {
    let r = await call('write_todos', { todos: [{ title: 'a', description: '', status: 'in_progress' }] });
    assert.equal(r.ok, false);
    assert.match(r.output, /Invalid arguments for write_todos[\s\S]*todos\[0\]\.status/);
    r = await call('write_todos', { todos: [{ description: 'no title' }] });
    assert.match(r.output, /todos\[0\]\.title/);
    r = await call('write_todos', {});
    assert.match(r.output, /at todos/);
    r = await call('write_todos', { todos: [{ title: 'a', status: 'doing' }, { title: 'b', status: 'doing' }] });
    assert.equal(r.ok, false);
    assert.match(r.output, /At most one todo may be "doing"/);
  });

  it('update_todo by id (number or string), title and slug; refuses a second doing naming the current one', async () => {
    await call('write_todos', { todos: [{ title: 'Fix login bug', description: '' }, { title: 'Write docs', description: '' }] });
    let r = await call('update_todo', { id: 1, status: 'doing' });
    assert.equal(r.ok, true, r.output);
    assert.match(r.summary, /Todo 1 → doing: Fix login bug/);
    r = await call('update_todo', { id: 'write-docs', status: 'doing' });
    assert.equal(r.ok, false);
    assert.match(r.output, /Todo 1 "Fix login bug" is already doing/);
    r = await call('update_todo', { id: 'Write docs', description: 'README and CHANGELOG' });
    assert.equal(r.ok, true, r.output);
    assert.equal(todos.find('2')!.description, 'README and CHANGELOG');
    r = await call('update_todo', { id: '9', status: 'done' });
    assert.match(r.output, /No todo "9".*1: "Fix login bug"/s);
  });

  it('update_todo: missing id, bad status, nothing to change → clear errors', async () => {
    await call('write_todos', { todos: [{ title: 'a' }] });
    let r = await call('update_todo', { status: 'doing' });
    assert.equal(r.ok, false);
    assert.match(r.output, /expected string, received undefined\s+→ at id/);
    r = await call('update_todo', { id: '1', status: 'started' });
    assert.match(r.output, /at status/);
    r = await call('update_todo', { id: '1' });
    assert.equal(r.ok, false);
    assert.match(r.output, /nothing to change/);
  });

  it('complete_todo with a log, then list_todos in doing, todo, done order', async () => {
    await call('write_todos', { todos: [{ title: 'a' }, { title: 'b' }, { title: 'c' }] });
    await call('update_todo', { id: '3', status: 'doing' });
    let r = await call('complete_todo', { id: 'a', log: 'edited a.ts' });
    assert.equal(r.ok, true, r.output);
    assert.match(r.output, /Completed todo 1 "a"\. 2 todos still open\./);
    assert.equal(todos.find('1')!.log, 'edited a.ts');
    r = await call('list_todos', {});
    assert.equal(r.ok, true);
    assert.deepEqual(r.output.split('\n').map((l) => l.slice(0, 6)), ['[>] 3.', '[ ] 2.', '[x] 1.']);
    assert.equal(r.summary, '✓ 3 todos (1 doing, 1 todo, 1 done)');
    r = await call('complete_todo', {});
    assert.match(r.output, /at id/);
  });

  it('list_todos on an empty list says so', async () => {
    const r = await call('list_todos', '');
    assert.equal(r.ok, true);
    assert.match(r.output, /empty/);
  });

  it('todo tools refuse subagents and contexts without a TodoStore', async () => {
    const sub = toolContext({ workspaceRoot: process.cwd(), todos, agent: { name: 'Code-Explorer', isSubagent: true } });
    for (const [name, args] of [['write_todos', { todos: [] }], ['update_todo', { id: '1', status: 'done' }], ['complete_todo', { id: '1' }], ['list_todos', {}]] as const) {
      const r = await call(name, args, sub);
      assert.equal(r.ok, false, name);
      assert.equal(r.errorKind, 'permission');
      assert.match(r.output, /todo tools are for the main agent only/);
    }
    const plain = toolContext({ workspaceRoot: process.cwd() });
    const r = await call('list_todos', {}, plain);
    assert.equal(r.ok, false);
    assert.match(r.output, /todo list is not available/);
  });

  it('task_complete records the verdict for the executor', async () => {
    const r = await call('task_complete', { summary: 'Fixed the null check in src/login.ts\nAdded a test.', status: 'success' });
    assert.equal(r.ok, true);
    assert.deepEqual(ctx.completion.result, { summary: 'Fixed the null check in src/login.ts\nAdded a test.', status: 'success' });
    assert.equal(r.summary, '✓ Task complete (success): Fixed the null check in src/login.ts');
  });

  it('task_complete: missing summary or a bad status is a validation error and records nothing', async () => {
    let r = await call('task_complete', { status: 'success' });
    assert.equal(r.ok, false);
    assert.match(r.output, /at summary/);
    r = await call('task_complete', { summary: 'done', status: 'partial' });
    assert.match(r.output, /at status/);
    assert.equal(ctx.completion.result, undefined);
  });
});
