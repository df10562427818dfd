import type { ToolLifecycle } from '../tools/tool-lifecycle';
import type { ToolCall } from '../messages';
import { loadTemplateSections, renderTemplate } from '../templates';
import type { ToolRegistry } from '../tools/registry';
import { allHunksRejectedText } from '../tools/edit/hunk-review';
import { toolFailure, type ReviewedToolCall, type ToolResult } from '../tools/tool';
import { subjectQuestion, type ApprovalSubject } from '../tools/approval-subject';
import { approvalSubject, argumentsObject, extendCall } from '../tools/call-arguments';
import type { ApprovalRequest } from '../ui';
import { rulesForAlways } from './always-rules';
import type { ApprovalLevel } from '../config/approval-level';
import { AuditLog, auditLogFile, type AuditEntry } from './audit-log';
import { judgeCall } from './call-judge';
import type { Judgement } from './judgement';
import { mustAskOf } from './must-ask';
import { PermissionStore } from './permission-store';
import { serverOutsideSandbox } from '../sandbox/outside-sandbox';
import { SerialQueue } from '../serial-queue';

export interface ApprovalGateOptions {
  /** The workspace's rules and where "Always allow" is saved; default: built-in rules, remembered for the session only. */
  permissions?: PermissionStore;
  /** Where every decision is appended; default: none. */
  audit?: AuditLog;
  /** Whether commands run in the OS sandbox now (core/sandbox); default: they do not. */
  sandboxed?: () => Promise<boolean>;
  /** Commands run in a shell the POSIX reader cannot judge (cmd.exe, PowerShell): its name; each command then asks. */
  foreignShell?: string;
}

type Before = { proceed: true; call: ReviewedToolCall } | { proceed: false; result: ToolResult };
/** What a person could be asked about: a call's subject, unless it has none. */
type Asked = Exclude<ApprovalSubject, { kind: 'none' }>;

export interface ApprovalGate extends ToolLifecycle {
  /** Resolves when the audit lines written so far are on disk (or failed). */
  flush(): Promise<void>;
}

/**
 * The approval step before every tool call that can change something (read-only tools and the
 * todo list never ask), about what its tool says it is about (`Tool.approval`: a command, a file
 * and its proposed change, or the call). The danger rules and the permission rules decide first,
 * then the approval level; a write outside the workspace always asks. An ask goes to the user: allow, "Always allow"
 * (saved as rules), deny with feedback, or an edited command, which is judged again like a new
 * one. Without anyone to ask (a headless run) an ask is refused with a reason the model can act on.
 * Every decision goes to the audit log.
 */
export function approvalGate(registry: ToolRegistry, level: () => ApprovalLevel, options: ApprovalGateOptions = {}): ApprovalGate {
  let store = options.permissions;
  let loadWarningsShown = false;
  // One question at a time: calls that run in parallel (read-only MCP tools, a batch's calls, subagents)
  // would otherwise ask at once, and a terminal reads one answer at a time.
  const asking = new SerialQueue();
  const askInTurn = <T>(ask: () => Promise<T>): Promise<T> => asking.run(ask);
  return {
    flush: () => options.audit?.flush() ?? Promise.resolve(),
    async before(call, ctx): Promise<Before> {
      const tool = registry.get(call.name);
      // Unknown tools and invalid arguments fail in the registry without running: nothing to approve.
      if (!tool || (tool.readOnly && !tool.askEvenIfReadOnly) || tool.category === 'todo') return { proceed: true, call };
      const first = await approvalSubject(call, tool, ctx);
      // A batch asks for each of its calls, which come through here one by one.
      if (!first || first.kind === 'none') return { proceed: true, call };

      const permissions = (store ??= PermissionStore.inMemory(ctx.workspaceRoot));
      const warn = (message: string) => ctx.ui.onNotice?.(message, 'warning');
      if (!loadWarningsShown) {
        loadWarningsShown = true;
        permissions.warnings.forEach(warn);
      }
      // A server runs outside the sandbox (it must be reachable): it asks, at every level.
      const sandboxActive = first.kind === 'command' && (await options.sandboxed?.()) === true;
      const outsideOf = (s: Asked) => (sandboxActive && s.kind === 'command' ? serverOutsideSandbox(s.command) : undefined);
      const judge = (c: ToolCall, s: Asked) => {
        const outside = outsideOf(s);
        return judgeCall(
          { tool: call.name, subject: s, args: argumentsObject(c), autoApproveEdits: ctx.mode.autoApproveEdits },
          { rules: permissions.rules(), level: level(), workspaceRoot: ctx.workspaceRoot, sandboxed: sandboxActive && !outside, ...(outside ? { outsideSandbox: outside } : {}), ...(options.foreignShell ? { foreignShell: options.foreignShell } : {}), ...(ctx.readableDirs ? { readableDirs: ctx.readableDirs } : {}) },
        );
      };
      const audit = (entry: Omit<AuditEntry, 'time' | 'tool' | 'level' | 'summary'>, c: ToolCall) => {
        const line: AuditEntry = { time: new Date().toISOString(), tool: call.name, summary: summaryOf(argumentsObject(c)), level: level(), ...entry };
        if (c !== call) line.editedFrom = summaryOf(argumentsObject(call));
        options.audit?.record(line, warn);
      };
      const facts = (j: Judgement) => ({ ...(j.rule ? { rule: j.rule } : {}), ...(j.reason ? { reason: j.reason } : {}) });

      let current: ToolCall = call;
      let subject: Asked = first;
      let judgement = judge(call, first);
      let asked = false;
      for (;;) {
        const edited = current !== call;
        const run = edited && subject.kind === 'command'
          ? { proceed: true as const, call: current, notes: [renderTemplate(loadTemplateSections('safety/approval.md').get('user_edited') ?? 'The user edited the command to: ${COMMAND}', { COMMAND: subject.command })] }
          : { proceed: true as const, call: current };
        if (judgement.action === 'allow') {
          audit({ action: 'allow', decidedBy: asked ? 'user' : judgement.decidedBy, ...facts(judgement), ...(asked ? { asked } : {}) }, current);
          return run;
        }
        if (judgement.action === 'deny') {
          audit({ action: 'deny', decidedBy: judgement.decidedBy, ...facts(judgement), ...(asked ? { asked } : {}) }, current);
          return refuse('permission', judgement.decidedBy === 'danger' ? 'danger' : 'denied', call.name, judgement);
        }
        // The user wrote the edited command themselves: rules and danger judged it again above, but asking them again would not.
        if (edited && judgement.action === 'ask') {
          audit({ action: 'allow', decidedBy: 'user', asked, ...facts(judgement) }, current);
          return run;
        }
        if (!ctx.ui.requestApproval) {
          audit({ action: 'deny', decidedBy: 'unattended', ...facts(judgement) }, current);
          return refuse('permission', 'unattended', call.name, { ...judgement, reason: judgement.reason ?? `the approval level is ${level()}` });
        }
        const request = describe(call.name, subject, current.arguments, judgement, sandboxActive ? !outsideOf(subject) : undefined);
        const decision = await askInTurn(() => ctx.ui.requestApproval!(request, ctx.signal));
        asked = true;
        switch (decision.action) {
          case 'allow':
            audit({ action: 'allow', decidedBy: 'user', asked, ...facts(judgement) }, current);
            return run;
          case 'always': {
            const entries = rulesForAlways(call.name, subject.kind, judgement, ctx.workspaceRoot);
            const saveWarning = await permissions.remember(entries);
            if (saveWarning) warn(saveWarning);
            if (judgement.askAlways && judgement.reason) ctx.ui.onNotice?.(`Allowed. This will still ask next time: ${judgement.reason}.`, 'info');
            audit({ action: 'allow', decidedBy: 'user', asked, ...facts(judgement), remembered: entries.map((e) => `${e.type} ${e.pattern ?? e.tool}`) }, current);
            return run;
          }
          case 'deny':
            // Refused by the front end's policy (opendev -p): nobody was asked, and its message is the whole answer.
            if (decision.unattended && decision.feedback) {
              audit({ action: 'deny', decidedBy: 'unattended', ...facts(judgement) }, current);
              return { proceed: false, result: toolFailure('permission', decision.feedback) };
            }
            audit({ action: 'deny', decidedBy: 'user', asked, ...facts(judgement) }, current);
            return refuse('rejected', 'user_denied', call.name, judgement, decision.feedback ? `: ${sentence(decision.feedback)}` : '.');
          case 'partial': {
            // Hunk by hunk: every hunk is a plain allow, none a denial; otherwise the tool gets the verdict.
            const proposed = request.proposed;
            const total = proposed?.hunks.length ?? 0;
            const accepted = [...new Set(decision.acceptedHunks)].filter((i) => Number.isInteger(i) && i >= 0 && i < total).sort((a, b) => a - b);
            const hunks = `accepted ${accepted.length} of ${total} hunks${accepted.length ? ` (${accepted.map((i) => i + 1).join(', ')})` : ''}`;
            if (!proposed || accepted.length === 0) {
              audit({ action: 'deny', decidedBy: 'user', asked, ...facts(judgement), hunks }, current);
              return proposed ? { proceed: false, result: toolFailure('rejected', allHunksRejectedText(call.name, total)) } : refuse('rejected', 'user_denied', call.name, judgement, '.');
            }
            audit({ action: 'allow', decidedBy: 'user', asked, ...facts(judgement), hunks }, current);
            if (accepted.length === total) return run;
            return { proceed: true, call: extendCall(run.call, { review: { before: proposed.before, after: proposed.after, hunks: proposed.hunks, acceptedHunks: accepted } }) };
          }
          case 'edit': {
            if (subject.kind !== 'command') {
              audit({ action: 'deny', decidedBy: 'user', asked }, current);
              return refuse('rejected', 'edit_not_command', call.name, judgement);
            }
            // Sending back the very command that was shown confirms it; anything else is judged afresh.
            if (decision.command.trim() === subject.command.trim()) {
              audit({ action: 'allow', decidedBy: 'user', asked, ...facts(judgement) }, current);
              return run;
            }
            const next: ToolCall = { ...call, arguments: JSON.stringify(subject.withCommand(decision.command)) };
            const nextSubject = await approvalSubject(next, tool, ctx);
            if (!nextSubject || nextSubject.kind === 'none') return { proceed: true, call: next }; // the registry says what is wrong with it
            current = next;
            subject = nextSubject;
            judgement = judge(current, subject);
          }
        }
      }
    },
  };
}

/**
 * The gate of a session: the workspace's permission files (problems reported on the first call)
 * and the project's audit log under `OPENDEV_HOME/projects/<project>/audit.jsonl`.
 */
export function sessionApprovalGate(
  registry: ToolRegistry,
  level: () => ApprovalLevel,
  where: { home: string; workspaceRoot: string; projectTrusted?: boolean; sandboxed?: () => Promise<boolean>; foreignShell?: string },
): ApprovalGate {
  return approvalGate(registry, level, {
    permissions: PermissionStore.load(where),
    audit: new AuditLog(auditLogFile(where.home, where.workspaceRoot)),
    ...(where.sandboxed ? { sandboxed: where.sandboxed } : {}),
    ...(where.foreignShell ? { foreignShell: where.foreignShell } : {}),
  });
}

/** Feedback closed as a sentence, so the template's next sentence does not run on (… escaped: see sandbox-violations.ts). */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?\u2026]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function refuse(kind: 'permission' | 'rejected', section: string, tool: string, judgement: Judgement, feedback = ''): { proceed: false; result: ToolResult } {
  const template = loadTemplateSections('safety/approval.md').get(section) ?? '${TOOL}: ${REASON}';
  const text = renderTemplate(template, { TOOL: tool, RULE: judgement.rule?.id ?? '', REASON: judgement.reason ?? 'refused', FEEDBACK: feedback });
  return { proceed: false, result: toolFailure(kind, text) };
}

/** `sandboxed` undefined: the session has no active sandbox, and the card says nothing about one unless the model asked to leave it. */
function describe(toolName: string, subject: Asked, rawArgs: string, judgement: Judgement, sandboxed: boolean | undefined): ApprovalRequest {
  const question = subjectQuestion(toolName, subject);
  const why = judgement.reason ? ` (${judgement.reason})` : '';
  const request: ApprovalRequest = { kind: 'tool', toolName, ...question, title: `${question.title}${why}`, args: rawArgs, aboutCall: true };
  if (judgement.reason) request.reason = judgement.reason;
  if (subject.kind === 'command' && (sandboxed !== undefined || !subject.sandbox)) request.sandbox = sandboxed && subject.sandbox ? 'inside' : 'outside';
  const mustAsk = mustAskOf(judgement);
  if (mustAsk) request.mustAsk = mustAsk;
  return request;
}

function summaryOf(args: Record<string, unknown>): string {
  if (typeof args.command === 'string') return args.command;
  if (typeof args.file_path === 'string') return args.file_path;
  const json = JSON.stringify(args);
  return json.length > 300 ? `${json.slice(0, 299)}…` : json;
}
