import { isAbsolute, resolve } from 'node:path';
import { checkScriptDanger } from '../process/danger-gate';
import { programOf } from '../process/command-program';
import { outputWrites, partCwd, splitCommand, type CommandPart, type SplitCommand } from './command-part';
import { ruleRef, type JudgeContext, type Judgement, type PartVerdict } from './judgement';
import { ruleMatches, type PermissionRule, type RuleSubject } from './permission-rule';
import { isKnownSafePart } from './safe-commands';
import { repositoryGitPrograms } from './repository-git-programs';
import { secretConcern } from './command-secrets';
import { checkBoundary } from '../files/workspace-boundary';

/**
 * Judges a command line: the danger rules first (nothing overrides them), then every simple
 * command on its own against the rules (first match by priority) or, without a matching rule,
 * the approval level. The line is allowed only when every part is, and denied when any part is.
 * The level alone never approves nested commands, several lines or writes by redirection; an
 * allow rule covers redirections only when it says so (`redirects: true`); writes outside the
 * workspace and commands naming a secret location always ask; hidden expansions and unreadable
 * lines always ask.
 */
export function judgeCommand(command: string, ctx: JudgeContext): Judgement {
  const split = splitCommand(command);
  const danger = dangerOf(command, split, ctx);
  if (danger) return danger;
  // Each word may be a path to look up (links, secret locations): past this, judging one by one is not bounded.
  const words = split.parts.reduce((n, p) => n + p.words.length + p.redirects.length, 0);
  if (words > MAX_JUDGED_WORDS) {
    const reason = `the line has ${split.parts.length} commands with ${words} words, too many to judge one by one`;
    return { action: 'ask', decidedBy: 'rule', rule: { id: 'default:hidden-command', source: 'default' }, reason, parts: [], askAlways: true };
  }
  const parts = split.parts.map((part) => judgePart(part, split, ctx));
  const denied = parts.find((v) => v.action === 'deny');
  if (denied) return verdictOf('deny', denied, parts);

  // In the sandbox a line that cannot be read is contained like any other.
  const hidden = ctx.sandboxed && ctx.level !== 'manual' ? undefined : split.risky ?? split.deceptive ?? (split.parseError ? `the line cannot be read reliably: ${split.parseError}` : undefined);
  if (hidden) return { action: 'ask', decidedBy: 'rule', rule: { id: 'default:hidden-command', source: 'default' }, reason: hidden, parts, askAlways: true };

  const asking = [...parts].filter((v) => v.action === 'ask').sort((a, b) => ASK_WEIGHT[b.decidedBy] + (b.reason ? 1 : 0) - (ASK_WEIGHT[a.decidedBy] + (a.reason ? 1 : 0)))[0];
  if (asking) return { ...verdictOf('ask', asking, parts), ...(parts.some((v) => v.decidedBy === 'boundary') ? { askAlways: true } : {}) };
  if (parts.length === 0) return { action: 'allow', decidedBy: 'level', parts };
  const byLevel = parts.find((v) => v.decidedBy !== 'rule');
  return byLevel ? { action: 'allow', decidedBy: 'level', parts } : verdictOf('allow', parts[0]!, parts);
}

const ASK_WEIGHT: Record<PartVerdict['decidedBy'], number> = { boundary: 6, danger: 6, rule: 4, level: 0 };
const MAX_JUDGED_WORDS = 4000;

function verdictOf(action: Judgement['action'], v: PartVerdict, parts: PartVerdict[]): Judgement {
  const out: Judgement = { action, decidedBy: v.decidedBy, parts };
  if (v.rule) out.rule = ruleRef(v.rule);
  if (v.boundaryKind) out.boundaryKind = v.boundaryKind;
  const reason = v.reason ?? (action === 'deny' && v.rule ? `\`${v.part.text}\` is denied by the rule ${v.rule.id}` : undefined);
  if (reason) out.reason = reason;
  return out;
}

/** The built-in danger rules (on the line as read: every simple command, decoded), then danger rules from permission files. */
function dangerOf(command: string, split: SplitCommand, ctx: JudgeContext): Judgement | undefined {
  const blocked = checkScriptDanger(split.script, { cwd: ctx.workspaceRoot, ...(ctx.home ? { home: ctx.home } : {}) });
  if (blocked.blocked) return { action: 'deny', decidedBy: 'danger', rule: { id: `danger:${blocked.rule}`, source: 'default' }, reason: blocked.reason ?? 'a dangerous command' };
  const lineSubject: RuleSubject = { command: true, ...toolOf(ctx), exact: [command], loose: [] };
  for (const rule of ctx.rules) {
    if (rule.type !== 'danger') continue;
    const part = split.parts.find((p) => ruleMatches(rule, subjectOf(p, ctx)));
    if (part || ruleMatches(rule, lineSubject)) {
      return { action: 'deny', decidedBy: 'danger', rule: ruleRef(rule), reason: `\`${part?.text ?? command}\` matches the danger rule ${rule.id}` };
    }
  }
  return undefined;
}

function judgePart(part: CommandPart, split: SplitCommand, ctx: JudgeContext): PartVerdict {
  const subject = subjectOf(part, ctx);
  const rule = ctx.rules.find((r) => r.type !== 'danger' && ruleMatches(r, subject));
  const verdict = rule ? ruleVerdict(part, rule) : levelVerdict(part, split, ctx);
  if (verdict.action !== 'deny') {
    // The sandbox hides the secret locations and keeps writes in the workspace: only protected
    // configuration inside it (git's internals, which commits need writable) still asks.
    const contained = ctx.sandboxed === true && ctx.level !== 'manual';
    // A secret location asks at every level, and no allow rule covers it.
    const secret = contained ? undefined : secretConcern(part, ctx);
    if (secret) return { part, action: 'ask', decidedBy: 'boundary', reason: secret, boundaryKind: 'secret', ...(rule ? { rule } : {}) };
    // The boundary is the reason worth telling, even when the part asks anyway.
    // Protected first: with several targets, the one no flag may approve is the one to tell.
    const cwd = partCwd(part, ctx.workspaceRoot, ctx.home);
    const where = (target: string) => (cwd && cwd !== ctx.workspaceRoot && !isAbsolute(target) && !/^[~$]/.test(target) ? resolve(cwd, target) : target);
    const concerns = part.writes.map((w) => checkBoundary(where(w.via === 'program' ? globFolder(w.target) : w.target), { workspaceRoot: ctx.workspaceRoot, home: ctx.home, cwdUnknown: cwd === undefined }));
    const concern = concerns.find((c) => c?.kind === 'protected') ?? (contained ? undefined : concerns.find(Boolean));
    if (concern) return { part, action: 'ask', decidedBy: 'boundary', reason: concern.reason, boundaryKind: concern.kind, ...(rule ? { rule } : {}) };
  }
  return verdict;
}

/** What a program's glob operand can reach: the folder before its first wildcard (`build/*.o` → `build`, `*.txt` → `.`). */
function globFolder(target: string): string {
  const wild = target.search(/[*?[]/);
  if (wild === -1 || /[$`]/.test(target) || /(?:^|\/)\.\.(?:\/|$)/.test(target)) return target;
  const slash = target.lastIndexOf('/', wild);
  return slash === -1 ? '.' : target.slice(0, slash) || '/';
}

function ruleVerdict(part: CommandPart, rule: PermissionRule): PartVerdict {
  const written = outputWrites(part);
  if (rule.action === 'allow' && written.length > 0 && !rule.redirects) {
    return { part, action: 'ask', decidedBy: 'rule', rule, reason: `it writes to \`${written[0]!.target}\`, which the rule ${rule.id} does not cover` };
  }
  const reason = rule.action === 'ask' ? `\`${part.text}\` matches ${rule.id}` : undefined;
  return { part, action: rule.action, decidedBy: 'rule', rule, ...(reason ? { reason } : {}) };
}

/** Without a rule: Manual asks; Semi-Auto runs known read-only commands; Auto runs the rest of what is plain. */
function levelVerdict(part: CommandPart, split: SplitCommand, ctx: JudgeContext): PartVerdict {
  if (ctx.level === 'manual') return { part, action: 'ask', decidedBy: 'level' };
  // Inside the sandbox a command cannot reach past the workspace: the level has nothing to ask.
  if (ctx.sandboxed) return { part, action: 'allow', decidedBy: 'level' };
  const written = outputWrites(part);
  const feature = written.length > 0
    ? `it writes to \`${written[0]!.target}\``
    : split.substitution
      ? 'it runs nested commands ($(…), backticks or process substitution)'
      : split.multiline
        ? 'it runs commands on several lines'
        : undefined;
  if (feature) return { part, action: 'ask', decidedBy: 'level', reason: feature };
  if (ctx.level === 'semi-auto' && !isKnownSafePart(part)) return { part, action: 'ask', decidedBy: 'level' };
  if (ctx.level === 'semi-auto' && programOf(part.words).name === 'git') {
    const programs = repositoryGitPrograms(ctx.workspaceRoot);
    if (programs) return { part, action: 'ask', decidedBy: 'level', reason: programs };
  }
  return { part, action: 'allow', decidedBy: 'level' };
}

/** What rules see of one simple command. Allows match it as written; denials also past wrappers and folders. */
export function subjectOf(part: CommandPart, ctx: Pick<JudgeContext, 'tool'> = {}): RuleSubject {
  const { name, args, assignments } = programOf(part.words);
  const bare = [name, ...args].join(' ').trim();
  const exact = part.written === part.text ? [part.text] : [part.text, part.written];
  if (!assignments && !exact.includes(bare)) exact.push(bare);
  return { command: true, ...toolOf(ctx), exact, loose: [bare, part.words.join(' ')], part };
}

const toolOf = (ctx: Pick<JudgeContext, 'tool'>) => (ctx.tool !== undefined ? { tool: ctx.tool } : {});
