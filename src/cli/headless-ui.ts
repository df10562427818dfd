import type { MustAsk, MustAskKind, MustAskReason } from '../core/safety/must-ask';
import { loadTemplate, loadTemplateSections, renderTemplate } from '../core/templates';
import type { ApprovalDecision, ApprovalRequest, PlanDecision, UICallback } from '../core/ui';
import type { StreamRenderer } from '../terminal-ui/stream-renderer';
import { ALLOW_FLAGS, type ApprovalLevel } from './args';
import { parseToolArguments } from '../core/messages';
import type { StreamEvent } from './stream-events';

export const HEADLESS_APPROVAL_DENIED = 'non-interactive run: approval denied (use --approval auto to allow)';
export const HEADLESS_APPROVAL_ALLOWED = 'allowed by --approval auto';
/** What the model is told when a plan cannot be reviewed (it reads this: a template). */
export const HEADLESS_PLAN_NOT_APPROVED = () =>
  (loadTemplate('plan/headless-not-approved.md') ?? 'The plan cannot be approved in a non-interactive run.').replace(/\s*\n\s*/g, ' ');

/** What the loud flags let `--approval auto` approve beyond the workspace. */
export interface HeadlessAllowances {
  /** --allow-outside-workspace: writes outside the workspace, and to paths known only when the command runs. */
  outsideWorkspace?: boolean;
  /** --allow-risky-commands: the caution rules (force push, git reset/clean/rm, rm -r…) and hidden command lines. */
  riskyCommands?: boolean;
  /** --allow-unsandboxed: a command the model asks to run outside the sandbox (`sandbox: false`). */
  unsandboxed?: boolean;
}

export interface HeadlessUIOptions {
  approval: ApprovalLevel;
  allow?: HeadlessAllowances;
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
 * stderr; a plan is approved only with `--approval auto`. Even then, a request the gate marks as
 * needing a person (`mustAsk`) is refused, unless a loud flag covers every concern of it; protected
 * configuration and secret locations are refused whatever the flags. There is no askUser: ask_user
 * then tells the model that no user is available.
 */
export function createHeadlessUI(options: HeadlessUIOptions): UICallback {
  const { emit, progress, warn } = options;
  const auto = options.approval === 'auto';
  const refuseBoundary = (request: ApprovalRequest, blocker: MustAskReason): ApprovalDecision => {
    const flag = FLAG_OF[blocker.kind];
    const why = flag ? REFUSED_UNLESS_FLAG[blocker.kind]!(flag) : NEVER_HEADLESS[blocker.kind];
    const message = `refused: ${blocker.reason}; ${why}`;
    emit?.({ type: 'approval', tool: request.toolName, kind: request.kind, decision: 'deny', reason: message, concern: blocker.kind });
    // The title usually carries the reason already.
    warn(`${request.title} — ${request.title.includes(blocker.reason) ? `refused: ${why}` : message}`);
    return { action: 'deny', unattended: true, feedback: modelRefusal(request.toolName, blocker, flag) };
  };
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
      // The event stream carries the facts, not the front end's "Retry now" handle.
      emit?.({ type: 'retry', attempt: info.attempt, maxAttempts: info.maxAttempts, delayMs: info.delayMs, reason: info.reason });
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
      // The doom-loop question and a hook's ask carry no mustAsk: they keep the plain rule below.
      const blocker = uncovered(request.mustAsk, options.allow ?? {});
      if (blocker && (auto || FLAG_OF[blocker.kind] === undefined)) return refuseBoundary(request, blocker);
      if (auto) {
        emit?.({ type: 'approval', tool: request.toolName, kind: request.kind, decision: 'allow', reason: allowedReason(request.mustAsk) });
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

/** The flag that lets `--approval auto` approve each kind; none for protected configuration and secrets. */
const FLAG_OF: Record<MustAskKind, string | undefined> = {
  'outside-workspace': ALLOW_FLAGS.outsideWorkspace,
  caution: ALLOW_FLAGS.riskyCommands,
  hidden: ALLOW_FLAGS.riskyCommands,
  unsandboxed: ALLOW_FLAGS.unsandboxed,
  protected: undefined,
  secret: undefined,
};

const REFUSED_UNLESS_FLAG: Partial<Record<MustAskKind, (flag: string) => string>> = {
  'outside-workspace': (flag) => `--approval auto approves changes inside the workspace only (pass ${flag} to allow this)`,
  caution: (flag) => `--approval auto does not approve commands that can lose work or send data away (pass ${flag} to allow this)`,
  hidden: (flag) => `--approval auto does not approve a command line it cannot read reliably (pass ${flag} to allow this)`,
  unsandboxed: (flag) => `--approval auto does not approve a command outside the sandbox (pass ${flag} to allow this)`,
};

const NEVER_HEADLESS: Partial<Record<MustAskKind, string>> = {
  protected: 'protected configuration is never changed in a non-interactive run, whatever the flags: a person must approve it in an interactive session',
  secret: 'a secret location is never touched in a non-interactive run, whatever the flags: a person must approve it in an interactive session',
};

/** The first concern (strictest first) that no given flag covers. */
function uncovered(mustAsk: MustAsk | undefined, allow: HeadlessAllowances): MustAskReason | undefined {
  const given = new Set<string>();
  if (allow.outsideWorkspace) given.add(ALLOW_FLAGS.outsideWorkspace);
  if (allow.riskyCommands) given.add(ALLOW_FLAGS.riskyCommands);
  if (allow.unsandboxed) given.add(ALLOW_FLAGS.unsandboxed);
  return mustAsk?.all.find((c) => !given.has(FLAG_OF[c.kind] ?? ''));
}

function allowedReason(mustAsk: MustAsk | undefined): string {
  if (!mustAsk) return HEADLESS_APPROVAL_ALLOWED;
  const flags = [...new Set(mustAsk.all.map((c) => FLAG_OF[c.kind]).filter((f): f is string => f !== undefined))];
  return `${HEADLESS_APPROVAL_ALLOWED} and ${flags.join(' and ')}`;
}

/** What the model reads (a template): why, and not to try the same change another way. */
function modelRefusal(tool: string, blocker: MustAskReason, flag: string | undefined): string {
  const section = blocker.kind === 'outside-workspace' ? 'outside_workspace' : flag ? 'risky' : 'protected';
  const template = loadTemplateSections('safety/headless-refusal.md').get(section) ?? '${TOOL} was refused: ${REASON}.';
  return renderTemplate(template, { TOOL: tool, REASON: blocker.reason, FLAG: flag ?? '' });
}
