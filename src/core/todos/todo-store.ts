import type { Todo, TodoList, TodoStatus } from '../todo';
import { oneLine } from '../process/task-format';

/** What write_todos and plan approval hand in; ids are assigned by the store. */
export interface TodoInput {
  title: string;
  description?: string;
  status?: TodoStatus;
}

export type TodoPatch = Partial<Pick<Todo, 'title' | 'description' | 'status'>>;

export type TodoListener = (todos: readonly Todo[]) => void;

/** A request the store refuses (unknown reference, a second `doing`…). The message is for the model. */
export class TodoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TodoError';
  }
}

const STATUS_ORDER: Record<TodoStatus, number> = { doing: 0, todo: 1, done: 2 };
const MAX_TITLE_CHARS = 100;

/**
 * The session's kanban todo list (paper §2.4.6): ids "1", "2", … assigned on write, at most one
 * todo `doing` at a time, listed doing → todo → done. Only the main agent changes it (the todo tools
 * refuse subagents); every change is pushed to the listeners, which the executor forwards to
 * `ui.onTodos`.
 */
export class TodoStore implements TodoList {
  /** In id order; `list()` sorts by status. */
  private todos: Todo[] = [];
  private nextId = 1;
  private readonly listeners = new Set<TodoListener>();

  /** Replaces the whole list. Rejects more than one `doing` and empty titles; the list is unchanged then. */
  write(inputs: readonly TodoInput[]): readonly Todo[] {
    const doing = inputs.filter((t) => (t.status ?? 'todo') === 'doing');
    if (doing.length > 1) {
      throw new TodoError(
        `At most one todo may be "doing"; got ${doing.length} (${doing.map((t) => `"${t.title}"`).join(', ')}). ` +
          'Mark only the one you are working on now as doing and the others as todo.',
      );
    }
    inputs.forEach((t, i) => {
      if (t.title.trim() === '') throw new TodoError(`Todo ${i + 1} has an empty title.`);
    });
    this.nextId = 1;
    this.todos = inputs.map((t) => ({
      id: String(this.nextId++),
      title: t.title.trim(),
      description: (t.description ?? '').trim(),
      status: t.status ?? 'todo',
    }));
    this.emit();
    return this.list();
  }

  /** Changes one todo found by id, exact title or slug of its title. Setting a second `doing` is refused. */
  update(ref: string, patch: TodoPatch): Todo {
    const todo = this.resolve(ref);
    if (patch.title !== undefined && patch.title.trim() === '') throw new TodoError('The new title is empty.');
    if (patch.status === 'doing') this.assertNoOtherDoing(todo);
    const next: Todo = { ...todo };
    if (patch.title !== undefined) next.title = patch.title.trim();
    if (patch.description !== undefined) next.description = patch.description.trim();
    if (patch.status !== undefined) next.status = patch.status;
    this.replace(next);
    return { ...next };
  }

  /** Marks a todo done, keeping an optional log of what was done. */
  complete(ref: string, log?: string): Todo {
    const todo = this.resolve(ref);
    const next: Todo = { ...todo, status: 'done' };
    const trimmed = log?.trim();
    if (trimmed) next.log = trimmed;
    this.replace(next);
    return { ...next };
  }

  /** Every todo, doing first, then todo, then done (id order within a status). Copies. */
  list(): readonly Todo[] {
    return [...this.todos]
      .sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || Number(a.id) - Number(b.id))
      .map((t) => ({ ...t }));
  }

  hasOpen(): boolean {
    return this.todos.some((t) => t.status !== 'done');
  }

  /** The todo a reference points at, or undefined (no error). */
  find(ref: string): Todo | undefined {
    const matches = this.matches(ref);
    return matches.length === 1 ? { ...matches[0]! } : undefined;
  }

  /**
   * Replaces the list with an approved plan's implementation steps, all `todo`. A step's first line
   * is its title (shortened when long); the rest (sub-items, details) becomes the description.
   */
  fromPlanSteps(steps: readonly string[]): readonly Todo[] {
    return this.write(
      steps
        .filter((s) => s.trim() !== '')
        .map((step) => {
          const [head = '', ...rest] = step.trim().split('\n');
          const first = head.trim();
          const title = shortTitle(first);
          const description = (title === first ? rest : [first, ...rest]).join('\n').trim();
          return { title, description, status: 'todo' as const };
        }),
    );
  }

  /** Subscribes to every change; returns the unsubscribe function. */
  onChange(listener: TodoListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private resolve(ref: string): Todo {
    const matches = this.matches(ref);
    if (matches.length === 1) return matches[0]!;
    if (matches.length > 1) {
      throw new TodoError(
        `"${ref}" matches several todos (${matches.map((t) => `${t.id}: "${t.title}"`).join(', ')}). Use the numeric id.`,
      );
    }
    const known = this.todos.length === 0
      ? 'The list is empty; create todos with write_todos first.'
      : `Existing todos: ${this.todos.map((t) => `${t.id}: "${t.title}"`).join(', ')}.`;
    throw new TodoError(`No todo "${ref}". Refer to a todo by its id, its exact title or its slug. ${known}`);
  }

  /** By id ("3" or "#3"), then exact title, then title ignoring case, then slug: the first rule that matches wins. */
  private matches(ref: string): Todo[] {
    const wanted = ref.trim();
    const id = wanted.replace(/^#/, '');
    const byId = this.todos.filter((t) => t.id === id);
    if (byId.length > 0) return byId;
    const rules: Array<(t: Todo) => boolean> = [
      (t) => t.title === wanted,
      (t) => t.title.toLowerCase() === wanted.toLowerCase(),
      (t) => slugify(t.title) === slugify(wanted) && slugify(wanted) !== '',
    ];
    for (const rule of rules) {
      const found = this.todos.filter(rule);
      if (found.length > 0) return found;
    }
    return [];
  }

  private assertNoOtherDoing(todo: Todo): void {
    const current = this.todos.find((t) => t.status === 'doing' && t.id !== todo.id);
    if (current) {
      throw new TodoError(
        `Todo ${current.id} "${current.title}" is already doing; only one todo may be doing at a time. ` +
          `Complete it (complete_todo) or set it back to todo before starting todo ${todo.id}.`,
      );
    }
  }

  private replace(next: Todo): void {
    this.todos = this.todos.map((t) => (t.id === next.id ? next : t));
    this.emit();
  }

  private emit(): void {
    const snapshot = this.list();
    for (const listener of this.listeners) {
      try {
        listener(snapshot);
      } catch {
        // A failing listener (a UI bug) must not break the tool call that changed the list.
      }
    }
  }
}

/** "Fix the login bug!" → "fix-the-login-bug". */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Counts for summaries: "3 todos (1 doing, 1 done)". */
export function describeCounts(todos: readonly Todo[]): string {
  const count = (s: TodoStatus) => todos.filter((t) => t.status === s).length;
  const parts = (['doing', 'todo', 'done'] as const).filter((s) => count(s) > 0).map((s) => `${count(s)} ${s}`);
  const noun = todos.length === 1 ? 'todo' : 'todos';
  return parts.length === 0 ? `0 ${noun}` : `${todos.length} ${noun} (${parts.join(', ')})`;
}

/** The list as the model reads it: one line per todo, in list order. */
export function renderTodos(todos: readonly Todo[]): string {
  if (todos.length === 0) return '(no todos)';
  return todos
    .map((t) => {
      const mark = t.status === 'done' ? '[x]' : t.status === 'doing' ? '[>]' : '[ ]';
      const description = t.description ? ` — ${oneLine(t.description, 160, 'spaces')}` : '';
      const log = t.log ? ` (log: ${oneLine(t.log, 120, 'spaces')})` : '';
      return `${mark} ${t.id}. ${t.title} [${t.status}]${description}${log}`;
    })
    .join('\n');
}

function shortTitle(step: string): string {
  const flat = step.replace(/\s+/g, ' ');
  if (flat.length <= MAX_TITLE_CHARS) return flat;
  const sentence = /^(.{20,}?[.;:])\s/.exec(flat)?.[1];
  if (sentence && sentence.length <= MAX_TITLE_CHARS) return sentence.replace(/[.;:]$/, '');
  const cut = flat.slice(0, MAX_TITLE_CHARS - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > 40 ? cut.slice(0, space) : cut}…`;
}
