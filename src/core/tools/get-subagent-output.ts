import * as z from 'zod';
import { outcomeResult } from './spawn-subagent';
import { toolFailure, type Tool } from './tool';

const schema = z.lazy(() => z.object({
  agent_id: z.string().trim().min(1).describe('The id spawn_subagent returned.'),
  wait: z
    .boolean()
    .default(false)
    .describe('Block until it finishes.'),
}));

export const getSubagentOutputTool: Tool<typeof schema> = {
  name: 'get_subagent_output',
  category: 'agent',
  readOnly: true,
  schema,
  async run(args, ctx) {
    const launcher = ctx.subagents;
    if (!launcher) return toolFailure('permission', 'this agent has no subagents.');
    const outcome = args.wait && launcher.wait ? await launcher.wait(args.agent_id, ctx.signal) : launcher.output(args.agent_id);
    if (!outcome) {
      return toolFailure('not_found', `no subagent with id "${args.agent_id}". Use the id spawn_subagent returned.`);
    }
    if (outcome.status === 'running') {
      return {
        ok: true,
        output:
          `${outcome.type} ${outcome.agentId} is still running. Continue with other work and check again later, ` +
          'or call get_subagent_output with wait: true to block until it finishes.',
        summary: `⧗ ${outcome.type} ${outcome.agentId} still running`,
      };
    }
    return outcomeResult(outcome);
  },
};
