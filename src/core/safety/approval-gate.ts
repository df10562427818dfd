import type { ToolLifecycle } from '../agent/tool-dispatcher';
import { toolArgumentsObject, type ToolCall } from '../messages';
import { previewEdit } from '../tools/edit-file';
import type { ToolRegistry } from '../tools/registry';
import { toolFailure, type ToolExecutionContext } from '../tools/tool';
import type { ApprovalRequest } from '../ui';
import type { ApprovalLevel } from './approval-level';
import { isKnownSafeCommand } from './safe-commands';

/**
 * The approval step before every tool call (the full rule system, hooks and audit log come with
 * the safety work; this is the level-based gate). Read-only tools never ask; edits approved with a
 * plan (approve_auto) don't; "Always allow" remembers the tool (or the command's program) for the
 * session. Without anyone to ask (a headless run), the call is refused with a reason the model can act on.
 */
export function approvalGate(registry: ToolRegistry, level: () => ApprovalLevel): ToolLifecycle {
  const always = new Set<string>();
  return {
    async before(call, ctx) {
      const tool = registry.get(call.name);
      // Unknown tools and invalid arguments fail in the registry without running: nothing to approve.
      // A batch asks for each of its calls, which come through here one by one.
      if (!tool || tool.readOnly || level() === 'auto' || call.name === 'batch_tool') return { proceed: true, call };
      const args = toolArgumentsObject(call.arguments);
      if (!tool.schema.safeParse(args).success) return { proceed: true, call };
      if (ctx.mode.autoApproveEdits && tool.category === 'file') return { proceed: true, call };
      const command = call.name === 'run_command' && typeof args.command === 'string' ? args.command : undefined;
      if (command !== undefined && level() === 'semi-auto' && isKnownSafeCommand(command)) return { proceed: true, call };
      const key = alwaysKey(call.name, command);
      if (always.has(key)) return { proceed: true, call };
      if (!ctx.ui.requestApproval) {
        return {
          proceed: false,
          result: toolFailure('permission', `${call.name} needs the user's approval, and no one is available to approve it (non-interactive run). Do the task without it, or tell the user what you would run or change.`),
        };
      }
      const decision = await ctx.ui.requestApproval(await describe(call, args, command, ctx), ctx.signal);
      switch (decision.action) {
        case 'allow':
          return { proceed: true, call };
        case 'always':
          always.add(key);
          return { proceed: true, call };
        case 'edit':
          return { proceed: true, call: { ...call, arguments: JSON.stringify({ ...args, command: decision.command }) } };
        case 'deny':
          return {
            proceed: false,
            result: toolFailure('rejected', `The user denied ${call.name}${decision.feedback ? `: ${decision.feedback}` : '.'} Do not retry it unchanged; ask or take another approach.`),
          };
      }
    },
  };
}

async function describe(call: ToolCall, args: Record<string, unknown>, command: string | undefined, ctx: ToolExecutionContext): Promise<ApprovalRequest> {
  const target = typeof args.file_path === 'string' ? args.file_path : undefined;
  const request: ApprovalRequest = {
    kind: 'tool',
    toolName: call.name,
    title: command !== undefined ? `Run \`${command}\`?` : target ? `${call.name} ${target}?` : `Allow ${call.name}?`,
    args: call.arguments,
  };
  if (command !== undefined) request.command = command;
  if (call.name === 'edit_file') {
    const preview = await previewEdit(ctx.workspaceRoot, args).catch(() => undefined);
    if (preview) request.diff = preview.diff;
  }
  return request;
}

function alwaysKey(tool: string, command: string | undefined): string {
  return command === undefined ? tool : `${tool}:${command.trim().split(/\s+/)[0] ?? ''}`;
}

