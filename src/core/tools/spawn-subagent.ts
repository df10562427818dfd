import * as z from 'zod';
import type { SubagentLauncher, SubagentOutcome } from '../subagents/launcher';
import { normalizeTypeName, unknownTypeMessage } from '../subagents/specs';
import { loadTemplateSections, renderTemplate } from '../templates';
import { toolFailure, type Tool, type ToolResult } from './tool';

const schema = z.lazy(() => z.object({
  subagent_type: z.string().trim().min(1).describe('One of the types above, e.g. Code-Explorer.'),
  task: z
    .string()
    .trim()
    .min(1)
    .describe('It sees nothing of this conversation: give the goal, paths, facts, constraints and what to return.'),
  model: z.string().trim().min(1).optional().describe('Model override (cheaper or stronger).'),
  background: z
    .boolean()
    .default(false)
    .describe('Return an id at once; collect with get_subagent_output.'),
  resume: z.string().trim().min(1).optional().describe('Id of a finished subagent to continue (same type).'),
}));

/**
 * readOnly: the call itself changes nothing; whatever a subagent writes goes through its own
 * (approval-gated) tools. Being read-only lets the dispatcher run several spawns of one response
 * concurrently, and lets the main agent spawn the Planner while in plan mode; in plan mode every
 * other type with a write-capable tool is refused here.
 */
export const spawnSubagentTool: Tool<typeof schema> = {
  name: 'spawn_subagent',
  category: 'agent',
  readOnly: true,
  schema,
  async run(args, ctx) {
    const launcher = ctx.subagents;
    if (!launcher) return toolFailure('permission', 'this agent cannot spawn subagents; do the work with your own tools.');
    const types = launcher.types();
    const wanted = normalizeTypeName(args.subagent_type);
    const type = types.find((t) => normalizeTypeName(t.name) === wanted);
    if (!type && !args.resume) return toolFailure('not_found', unknownTypeMessage(args.subagent_type, types));
    // Checked before every spawn, foreground, background or resumed, whoever defined the type.
    if (ctx.mode.mode === 'plan' || ctx.agent.planFilesOnly) {
      const refusal = planModeRefusal(type?.name ?? args.subagent_type, launcher, ctx.mode.mode === 'plan' ? 'plan_mode' : 'planner');
      if (refusal) return refusal;
    }
    const outcome = await launcher.spawn(
      {
        subagentType: type?.name ?? args.subagent_type,
        task: args.task,
        background: args.background,
        ...(args.model ? { model: args.model } : {}),
        ...(args.resume ? { resume: args.resume } : {}),
      },
      ctx.signal,
    );
    return outcomeResult(outcome);
  },
};

/** Plan mode (and the Planner) changes nothing, through a subagent either: a type with write-capable tools is refused. */
function planModeRefusal(type: string, launcher: SubagentLauncher, section: 'plan_mode' | 'planner'): ToolResult | undefined {
  const writes = launcher.writeToolsOf?.(type) ?? [];
  if (writes.length === 0) return undefined;
  const allowed = launcher.types().filter((t) => (launcher.writeToolsOf?.(t.name) ?? []).length === 0).map((t) => t.name);
  const template = loadTemplateSections('plan/spawn-refused.md').get(section) ?? '${TYPE} can change the workspace (${TOOLS}), which is not allowed here.';
  return toolFailure('permission', renderTemplate(template, { TYPE: type, TOOLS: writes.join(', '), ALLOWED: allowed.length > 0 ? allowed.join(', ') : 'no subagent' }));
}

/** A subagent outcome as the parent reads it (shared with get_subagent_output). */
export function outcomeResult(outcome: SubagentOutcome): ToolResult {
  const who = `${outcome.type} ${outcome.agentId}`;
  switch (outcome.status) {
    case 'running':
      return {
        ok: true,
        output:
          `${who} started in background, id ${outcome.agentId}. Continue with other work; ` +
          `use get_subagent_output with agent_id "${outcome.agentId}" to collect its result.`,
        summary: `⧗ ${who} started in background`,
      };
    case 'completed':
      return {
        ok: true,
        output: `[${who} completed]\n\n${outcome.summary}`,
        summary: `✓ ${who}: ${firstLine(outcome.summary)}`.slice(0, 200),
      };
    case 'failed':
    case 'stopped':
      return {
        ok: false,
        output: `[${who} ${outcome.status}]\n\n${outcome.summary}`,
        summary: `✗ ${who} ${outcome.status}: ${firstLine(outcome.summary)}`.slice(0, 200),
        errorKind: 'other',
      };
  }
}

function firstLine(text: string): string {
  return (text.split('\n').find((l) => l.trim() !== '') ?? '').trim();
}
