import * as z from 'zod';
import type { Tool } from './tool';

const schema = z.lazy(() => z.object({
  summary: z.string().min(1).describe('What you did, the outcome, and anything left for the user.'),
  status: z.enum(['success', 'failure']).describe('failure: it cannot be done (say why in summary).'),
}));

export const taskCompleteTool: Tool<typeof schema> = {
  name: 'task_complete',
  category: 'meta',
  readOnly: true,
  schema,
  async run(args, ctx) {
    const summary = args.summary.trim();
    ctx.completion.result = { summary, status: args.status };
    const first = summary.split('\n')[0] ?? '';
    return {
      ok: true,
      output: `Task marked complete (${args.status}).`,
      summary: `${args.status === 'success' ? '✓' : '✗'} Task complete (${args.status}): ${first}`.slice(0, 200),
    };
  },
};
