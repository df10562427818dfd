import * as assert from 'node:assert/strict';
import type { Todo } from '../../../../src/core/todo';
import { TodoError, TodoStore, describeCounts, renderTodos, slugify } from '../../../../src/core/todos/todo-store';

function store(...titles: string[]): TodoStore {
  const s = new TodoStore();
  s.write(titles.map((title) => ({ title, description: `about ${title}`, status: 'todo' as const })));
  return s;
}

describe('TodoStore', () => {
  it('assigns ids "1", "2", … in order and restarts them on every write', () => {
    const s = store('Read the code', 'Fix the login bug', 'Run the tests');
    assert.deepEqual(s.list().map((t) => t.id), ['1', '2', '3']);
    s.write([{ title: 'Only one' }]);
    assert.deepEqual(s.list().map((t) => [t.id, t.title, t.status, t.description]), [['1', 'Only one', 'todo', '']]);
  });

  it('rejects a write with two doing todos and leaves the list unchanged', () => {
    const s = store('a', 'b');
    assert.throws(
      () => s.write([{ title: 'x', status: 'doing' }, { title: 'y', status: 'doing' }]),
      (err: Error) => err instanceof TodoError && /At most one todo may be "doing"/.test(err.message),
    );
    assert.deepEqual(s.list().map((t) => t.title), ['a', 'b']);
  });

  it('finds a todo by id, exact title, title ignoring case, and slug', () => {
    const s = store('Read the code', 'Fix the login bug!', 'Run the tests');
    assert.equal(s.update('2', { description: 'by id' }).title, 'Fix the login bug!');
    assert.equal(s.update('#3', { description: 'hash id' }).title, 'Run the tests');
    assert.equal(s.update('Read the code', { description: 'by title' }).id, '1');
    assert.equal(s.update('run THE tests', { description: 'case' }).id, '3');
    assert.equal(s.update('fix-the-login-bug', { description: 'by slug' }).id, '2');
    assert.equal(s.find('fix-the-login-bug')?.description, 'by slug');
  });

  it('names the existing todos when a reference matches none, and asks for the id when several match', () => {
    const s = store('Same', 'Same', 'Other');
    assert.throws(() => s.update('nope', { status: 'done' }), /No todo "nope".*1: "Same".*3: "Other"/s);
    assert.throws(() => s.complete('same'), /matches several todos.*Use the numeric id/);
    assert.throws(() => new TodoStore().complete('1'), /list is empty; create todos with write_todos/);
  });

  it('refuses a second doing and names the current one', () => {
    const s = store('First step', 'Second step');
    s.update('1', { status: 'doing' });
    assert.throws(() => s.update('2', { status: 'doing' }), /Todo 1 "First step" is already doing/);
    s.update('1', { status: 'doing' }); // the same todo again is fine
    s.complete('1', 'done it');
    assert.equal(s.update('2', { status: 'doing' }).status, 'doing');
  });

  it('lists doing first, then todo, then done, in id order within a status', () => {
    const s = store('a', 'b', 'c', 'd');
    s.complete('1');
    s.update('3', { status: 'doing' });
    assert.deepEqual(s.list().map((t) => `${t.id}:${t.status}`), ['3:doing', '2:todo', '4:todo', '1:done']);
  });

  it('keeps the completion log and tracks whether anything is open', () => {
    const s = store('a');
    assert.equal(s.hasOpen(), true);
    const done = s.complete('a', '  changed src/a.ts  ');
    assert.equal(done.log, 'changed src/a.ts');
    assert.equal(s.hasOpen(), false);
    assert.equal(new TodoStore().hasOpen(), false);
  });

  it('notifies listeners on every change with the ordered list, until they unsubscribe', () => {
    const s = new TodoStore();
    const seen: Array<readonly Todo[]> = [];
    const off = s.onChange((todos) => seen.push(todos));
    s.onChange(() => {
      throw new Error('a broken UI listener');
    });
    s.write([{ title: 'a' }, { title: 'b' }]);
    s.update('2', { status: 'doing' });
    s.complete('2');
    off();
    s.complete('1');
    assert.equal(seen.length, 3);
    assert.deepEqual(seen[1]!.map((t) => t.id), ['2', '1']);
    assert.equal(seen[2]![1]!.status, 'done');
  });

  it('returns copies: callers cannot change the store by mutating results', () => {
    const s = store('a');
    const [todo] = s.list() as Todo[];
    todo!.status = 'done';
    assert.equal(s.hasOpen(), true);
  });

  it('turns plan steps into todos, shortening long steps and keeping details as the description', () => {
    const s = store('old');
    const long = 'Add a validateEmail() helper to src/auth/validate.ts that rejects addresses without a domain part. It must also trim whitespace first and lower-case the domain';
    const todos = s.fromPlanSteps(['Create the schema', '  ', `${long}`, 'Wire it into LoginForm\n- call it from submit()\n- show the error']);
    assert.deepEqual(todos.map((t) => t.id), ['1', '2', '3']);
    assert.ok(todos.every((t) => t.status === 'todo'));
    assert.equal(todos[0]!.title, 'Create the schema');
    assert.equal(todos[0]!.description, '');
    assert.ok(todos[1]!.title.length <= 100, todos[1]!.title);
    assert.equal(todos[1]!.description, long);
    assert.equal(todos[2]!.title, 'Wire it into LoginForm');
    assert.equal(todos[2]!.description, '- call it from submit()\n- show the error');
  });

  it('slugs, counts and renders for the tools', () => {
    assert.equal(slugify('Fix the Login bug!'), 'fix-the-login-bug');
    assert.equal(slugify('  Déjà vu  '), 'deja-vu');
    const s = store('a', 'b', 'c');
    s.update('1', { status: 'doing' });
    s.complete('3', 'ok');
    assert.equal(describeCounts(s.list()), '3 todos (1 doing, 1 todo, 1 done)');
    assert.equal(describeCounts([]), '0 todos');
    assert.match(renderTodos(s.list()), /^\[>\] 1\. a \[doing\] — about a\n\[ \] 2\. b \[todo\].*\n\[x\] 3\. c \[done\] — about c \(log: ok\)$/);
  });
});
