import * as z from 'zod';
import { renderTodos } from '../todos/todo-store';
import type { Tool } from './tool';
import { requireTodoStore, withTodoErrors } from './write-todos';

/** Models often send ids as numbers: accept 3 as "3". */
export const todoRef = z
  .preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string().min(1))
  .describe('Id (2), exact title or slug (fix-login-bug).');

const schema = z.lazy(() => z.object({
  id: todoRef,
  title: z.string().min(1).optional().describe('New title.'),
  description: z.string().optional().describe('New description.'),
  status: z.enum(['todo', 'doing', 'done']).optional().describe('New status.'),
}));

export const updateTodoTool: Tool<typeof schema> = {
  name: 'update_todo',
  category: 'todo',
  readOnly: false,
  schema,
  async run(args, ctx) {
    const store = requireTodoStore(ctx);
    const { id, ...patch } = args;
    if (patch.title === undefined && patch.description === undefined && patch.status === undefined) {
      return {
        ok: false,
        output: 'Error (other): nothing to change. Pass at least one of title, description or status.',
        summary: '✗ update_todo: nothing to change (pass title, description or status)',
        errorKind: 'other',
      };
    }
    const todo = withTodoErrors(() => store.update(id, patch));
    const all = store.list();
    const changed = [patch.status && `status → ${patch.status}`, patch.title !== undefined && 'title', patch.description !== undefined && 'description']
      .filter(Boolean)
      .join(', ');
    return {
      ok: true,
      output: `Updated todo ${todo.id} "${todo.title}" (${changed}).\n${renderTodos(all)}`,
      summary: `✓ Todo ${todo.id} ${patch.status ? `→ ${patch.status}` : 'updated'}: ${todo.title}`.slice(0, 200),
    };
  },
};
