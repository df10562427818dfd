export type TodoStatus = 'todo' | 'doing' | 'done';

export interface Todo {
  /** Stable short id ("1", "2", …) the model refers to. */
  id: string;
  title: string;
  description: string;
  status: TodoStatus;
  /** What was done, from complete_todo's optional log. */
  log?: string;
}

/** The session's todo list as tools and the executor see it (implemented by TodoStore). */
export interface TodoList {
  list(): readonly Todo[];
  /** True while any todo is not done: completion is deferred then. */
  hasOpen(): boolean;
}
