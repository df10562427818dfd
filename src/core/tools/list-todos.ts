import * as z from 'zod';
import { describeCounts, renderTodos } from '../todos/todo-store';
import type { Tool } from './tool';
import { requireTodoStore } from './write-todos';

const schema = z.lazy(() => z.object({}));

export const listTodosTool: Tool<typeof schema> = {
  name: 'list_todos',
  category: 'todo',
  readOnly: true,
  schema,
  async run(_args, ctx) {
    const todos = requireTodoStore(ctx).list();
    if (todos.length === 0) {
      return { ok: true, output: 'The todo list is empty.', summary: '✓ 0 todos: the list is empty' };
    }
    return { ok: true, output: renderTodos(todos), summary: `✓ ${describeCounts(todos)}` };
  },
};
