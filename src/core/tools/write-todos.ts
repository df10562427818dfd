import * as z from 'zod';
import { TodoError, TodoStore, describeCounts, renderTodos } from '../todos/todo-store';
import { ToolError, type Tool, type ToolExecutionContext } from './tool';

const status = z.enum(['todo', 'doing', 'done']);

const schema = z.lazy(() => z.object({
  todos: z
    .array(
      z.object({
        title: z.string().min(1).describe('Short, imperative.'),
        description: z.string().optional().describe('What it involves; how you will know it is done.'),
        status: status.optional().describe('Default todo.'),
      }),
    )
    .describe('The full list, in work order.'),
}));

export const writeTodosTool: Tool<typeof schema> = {
  name: 'write_todos',
  category: 'todo',
  readOnly: false,
  schema,
  async run(args, ctx) {
    const store = requireTodoStore(ctx);
    const todos = withTodoErrors(() => store.write(args.todos));
    return {
      ok: true,
      output: `Todo list replaced (${describeCounts(todos)}):\n${renderTodos(todos)}`,
      summary: `✓ ${describeCounts(todos)}`,
    };
  },
};

/**
 * The todo tools' gate: only the main agent may change the list (subagents never get these tools
 * in their schema; this is defence in depth), and the session must carry a real TodoStore.
 */
export function requireTodoStore(ctx: ToolExecutionContext): TodoStore {
  if (ctx.agent.isSubagent) {
    throw new ToolError('permission', 'todo tools are for the main agent only. Report progress in your task_complete summary instead.');
  }
  if (!(ctx.todos instanceof TodoStore)) {
    throw new ToolError('other', 'the todo list is not available in this session; track the steps in your replies instead.');
  }
  return ctx.todos;
}

/** Turns the store's refusals into tool errors the model can act on. */
export function withTodoErrors<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof TodoError) throw new ToolError('other', err.message);
    throw err;
  }
}
