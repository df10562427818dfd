import * as z from 'zod';
import { describeCounts, renderTodos } from '../todos/todo-store';
import type { Tool } from './tool';
import { todoRef } from './update-todo';
import { requireTodoStore, withTodoErrors } from './write-todos';

const schema = z.lazy(() => z.object({
  id: todoRef,
  log: z.string().optional().describe('What was done: files changed, tests run.'),
}));

export const completeTodoTool: Tool<typeof schema> = {
  name: 'complete_todo',
  category: 'todo',
  readOnly: false,
  schema,
  async run(args, ctx) {
    const store = requireTodoStore(ctx);
    const todo = withTodoErrors(() => store.complete(args.id, args.log));
    const all = store.list();
    const open = all.filter((t) => t.status !== 'done').length;
    const next = open === 0 ? 'All todos are done.' : `${open} todo${open === 1 ? '' : 's'} still open.`;
    return {
      ok: true,
      output: `Completed todo ${todo.id} "${todo.title}". ${next}\n${renderTodos(all)}`,
      summary: `✓ Done ${todo.id}: ${todo.title} — ${describeCounts(all)}`.slice(0, 200),
    };
  },
};
