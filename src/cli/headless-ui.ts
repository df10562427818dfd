import { loadTemplate } from '../core/templates';
import type { ApprovalDecision, PlanDecision, UICallback } from '../core/ui';
import type { StreamRenderer } from '../terminal-ui/stream-renderer';
import type { ApprovalLevel } from './args';
import { parseToolArguments } from '../core/messages';
import type { StreamEvent } from './stream-events';

export const HEADLESS_APPROVAL_DENIED = 'non-interactive run: approval denied (use --approval auto to allow)';
export const HEADLESS_APPROVAL_ALLOWED = 'allowed by --approval auto';
/** What the model is told when a plan cannot be reviewed (it reads this: a template). */
export const HEADLESS_PLAN_NOT_APPROVED = () =>
  (loadTemplate('plan/headless-not-approved.md') ?? 'The plan cannot be approved in a non-interactive run.').replace(/\s*\n\s*/g, ' ');

export interface HeadlessUIOptions {
  approval: ApprovalLevel;
  /** stream-json: every event, as it happens. */
  emit?: (event: StreamEvent) => void;
  /** --verbose: tool lines, thinking and notices rendered on stderr. */
  progress?: StreamRenderer;
  /** A line for the user on stderr (approval denials, warnings). */
  warn: (text: string) => void;
}

/**
 * The front end of `opendev -p`: nobody is there to answer, so a request for consent is allowed
 * only with `--approval auto` and otherwise denied with a message the model reads and a notice on
 * stderr; a plan is approved only with `--approval auto`. There is no askUser: ask_user then tells
 * the model that no user is available.
 */
export function createHeadlessUI(options: HeadlessUIOptions): UICallback {
  const { emit, progress, warn } = options;
  const auto = options.approval === 'auto';
  return {
    onTextDelta: (delta) => emit?.({ type: 'text', delta }),
    onThinkingDelta: (delta) => {
      emit?.({ type: 'thinking', delta });
      progress?.onThinkingDelta(delta);
    },
    onThinkingTrace: (text, phase) => {
      emit?.({ type: 'thinking', phase, text });
      progress?.onThinkingTrace(text, phase);
    },
    onToolStart: (call) => {
      emit?.({ type: 'tool_call', id: call.id, name: call.name, args: parseToolArguments(call.args) });
      progress?.onToolStart(call);
    },
    onToolEnd: (call, result) => {
      emit?.({ type: 'tool_result', id: call.id, name: call.name, ok: result.ok, summary: result.summary, ...(result.errorKind ? { errorKind: result.errorKind } : {}) });
      progress?.onToolEnd(call, result);
    },
    onNotice: (text, level) => {
      emit?.({ type: 'notice', level, text });
      if (progress) progress.onNotice(text, level);
      else warn(level === 'warning' ? `warning: ${text}` : text);
    },
    onRetry: (info) => {
      emit?.({ type: 'retry', ...info });
      progress?.onRetry(info);
    },
    onTodos: (todos) => {
      emit?.({ type: 'todos', todos });
      progress?.onTodos(todos);
    },
    onUsage: (usage) => emit?.({ type: 'usage', ...usage }),
    onCost: (cost) => emit?.({ type: 'cost', ...cost }),
    onContext: (info) => emit?.({ type: 'context', ...info }),
    onSubagentStart: (info) => {
      emit?.({ type: 'subagent_start', agentId: info.agentId, subagentType: info.type, task: info.task, background: info.background });
      progress?.onSubagentStart(info);
    },
    onSubagentEnd: (info) => {
      emit?.({
        type: 'subagent_end',
        agentId: info.agentId,
        subagentType: info.type,
        task: info.task,
        background: info.background,
        status: info.status,
        summary: info.summary,
      });
      progress?.onSubagentEnd(info);
    },
    onModeChange: (mode) => emit?.({ type: 'mode', mode }),

    async requestApproval(request): Promise<ApprovalDecision> {
      if (auto) {
        emit?.({ type: 'approval', tool: request.toolName, kind: request.kind, decision: 'allow', reason: HEADLESS_APPROVAL_ALLOWED });
        return { action: 'allow' };
      }
      emit?.({ type: 'approval', tool: request.toolName, kind: request.kind, decision: 'deny', reason: HEADLESS_APPROVAL_DENIED });
      warn(`${request.title} — ${HEADLESS_APPROVAL_DENIED}`);
      return { action: 'deny', feedback: HEADLESS_APPROVAL_DENIED };
    },

    async reviewPlan(plan): Promise<PlanDecision> {
      if (auto) {
        emit?.({ type: 'approval', tool: 'present_plan', kind: 'plan', decision: 'allow', reason: HEADLESS_APPROVAL_ALLOWED });
        return { action: 'approve' };
      }
      emit?.({ type: 'approval', tool: 'present_plan', kind: 'plan', decision: 'deny', reason: HEADLESS_APPROVAL_DENIED });
      warn(`the plan ${plan.path} was not approved — ${HEADLESS_APPROVAL_DENIED}`);
      return { action: 'modify', feedback: HEADLESS_PLAN_NOT_APPROVED() };
    },
  };
}
