import { isAbsolute, relative, resolve, sep } from 'node:path';
import { judgeCommand } from './command-judge';
import { ruleRef, type JudgeContext, type Judgement, type PartVerdict } from './judgement';
import { ruleMatches, type RuleSubject } from './permission-rule';
import { checkBoundary } from '../files/workspace-boundary';
import type { ApprovalSubject } from '../tools/approval-subject';

export interface CallFacts {
  /** The tool's name, for rules that name tools. */
  tool: string;
  /** What the tool says the call is about. */
  subject: Exclude<ApprovalSubject, { kind: 'none' }>;
  /** The arguments as the model sent them: rules about other calls match their JSON. */
  args: unknown;
  /** The user approved the plan with "auto-approve edits": file edits need no approval. */
  autoApproveEdits: boolean;
}

/**
 * Judges any tool call that changes something, by what it is about: a command by its command
 * line, a file by its path (rules on the workspace-relative path, then the level; outside the
 * workspace always asks), anything else by rules on its JSON arguments, then the level.
 */
export function judgeCall(call: CallFacts, ctx: JudgeContext): Judgement {
  const { subject } = call;
  if (subject.kind === 'command') {
    const context = { ...ctx, tool: call.tool };
    if (ctx.foreignShell) return inForeignShell(judgeCommand(subject.command, { ...context, sandboxed: false }), ctx.foreignShell);
    if (subject.sandbox && !ctx.outsideSandbox) return judgeCommand(subject.command, context);
    // Outside the sandbox: judged as if there were none, and a person decides, at every level.
    const judgement = judgeCommand(subject.command, { ...context, sandboxed: false });
    if (judgement.action === 'deny') return judgement;
    if (!subject.sandbox) {
      const reason = 'it asks to run outside the sandbox (sandbox: false), with your access to every file and host';
      return { ...judgement, action: 'ask', decidedBy: 'boundary', boundaryKind: 'unsandboxed', reason, askAlways: true };
    }
    return unsandboxedServer(judgement, ctx.outsideSandbox!);
  }
  const path = subject.kind === 'file' ? subject.path : undefined;
  const ruled = path !== undefined ? pathSubject(call.tool, path, ctx.workspaceRoot) : { tool: call.tool, exact: [JSON.stringify(call.args)], loose: [] };
  const rule = ctx.rules.find((r) => r.type !== 'danger' && ruleMatches(r, ruled));
  let judgement: Judgement;
  if (rule) judgement = { action: rule.action, decidedBy: 'rule', rule: ruleRef(rule), ...(rule.action !== 'allow' ? { reason: `it matches ${rule.id}` } : {}) };
  else if (ctx.level === 'auto' || (path !== undefined && call.autoApproveEdits)) judgement = { action: 'allow', decidedBy: 'level' };
  else judgement = { action: 'ask', decidedBy: 'level' };
  if (judgement.action === 'deny' || path === undefined) return judgement;
  const concern = checkBoundary(path, { workspaceRoot: ctx.workspaceRoot, home: ctx.home });
  return concern ? { ...judgement, action: 'ask', decidedBy: 'boundary', reason: concern.reason, askAlways: true, boundaryKind: concern.kind } : judgement;
}

/**
 * A command the sandbox cannot hold (a server): it asks even at Auto, since the program it starts
 * (`npm start`'s script, `python app.py`) can do anything the user can. Rules that allow it exactly
 * (the "Always allow" answer) let it run; what asks for a stricter reason keeps that reason.
 */
function unsandboxedServer(judgement: Judgement, why: string): Judgement {
  if (judgement.action === 'allow' && judgement.decidedBy === 'rule') return judgement;
  if (judgement.action === 'ask' && judgement.askAlways) return judgement;
  const reason = `${why}, so it runs outside the sandbox, with your access to every file and host`;
  const parts = judgement.parts?.map((v): PartVerdict => (v.action === 'allow' && v.decidedBy !== 'rule' ? { ...v, action: 'ask', decidedBy: 'boundary', boundaryKind: 'unsandboxed', reason } : v));
  return { ...judgement, action: 'ask', decidedBy: 'boundary', boundaryKind: 'unsandboxed', reason, ...(parts ? { parts } : {}) };
}

/** A line for a shell the reader cannot read: what it says may not be what runs, so a person decides each one. */
function inForeignShell(judgement: Judgement, shell: string): Judgement {
  if (judgement.action === 'deny') return judgement;
  const reason = `it runs in ${shell}, whose command lines OpenDev cannot judge, so each command asks`;
  return { ...judgement, action: 'ask', decidedBy: 'rule', rule: { id: 'default:hidden-command', source: 'default' }, reason, askAlways: true };
}

/** A file path as rules see it: workspace-relative with `/` (absolute when outside), and absolute. */
function pathSubject(tool: string, filePath: string, workspaceRoot: string): RuleSubject {
  const absolute = resolve(workspaceRoot, filePath);
  const rel = relative(workspaceRoot, absolute);
  const inside = rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
  const shown = inside ? rel.split(sep).join('/') : absolute;
  return { tool, exact: inside ? [shown, absolute] : [absolute], loose: [], paths: true };
}
