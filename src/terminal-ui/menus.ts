// Numbered menus for the agent's blocking requests (approval, ask_user, plan review), over any
// line-based terminal: they write text and read one line at a time. A cancelled request (Ctrl+C,
// end of input) settles with the safe answer: deny / no answer / modify.
import type {
  ApprovalDecision,
  ApprovalRequest,
  AskUserAnswers,
  AskUserQuestion,
  PlanDecision,
  PlanForReview,
} from '../core/ui';
import { approvalHeadline } from '../wording/approval-headline';
import { style } from './ansi';

export interface MenuIO {
  write(text: string): void;
  /** Shows `prompt` and reads one line; undefined when `signal` aborts or the input ends. */
  ask(prompt: string, signal: AbortSignal): Promise<string | undefined>;
  color: boolean;
}

const MAX_DIFF_LINES = 80;

/** 1 allow, 2 always, 3 deny [reason], 4 edit (when there is a command). The doom-loop pause: 1 allow once, 2 abort. */
export async function approvalMenu(io: MenuIO, request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
  const c = io.color;
  // The question in the chat's words ("Edit math.ts?"); the raw call follows when nothing else shows it.
  const out: string[] = [style(`⚠ ${approvalHeadline(request)}`, 'yellow', c)];
  if (request.command !== undefined) out.push(`  command: ${style(request.command, 'bold', c)}`);
  if (request.sandbox === 'inside') out.push(style('  runs in the sandbox (writes only in the workspace, no secrets, allowed hosts only)', 'dim', c));
  else if (request.sandbox === 'outside') out.push(style('  runs outside the sandbox, with your full access', 'yellow', c));
  if (request.diff) out.push(...renderDiff(request.diff, c));
  if (request.command === undefined && !request.diff && request.args) out.push(style(`  ${request.toolName} ${truncate(request.args.replace(/\s+/g, ' '), 300)}`, 'dim', c));

  // Fixed menus: each numbered choice is one decision.
  const fixed: readonly ApprovalDecision[] | undefined =
    request.kind === 'doom_loop' ? [{ action: 'allow' }, { action: 'deny' }] : request.kind === 'sandbox_host' ? [{ action: 'allow' }, { action: 'always' }, { action: 'deny' }] : undefined;
  if (fixed) {
    out.push(request.kind === 'doom_loop' ? '  1) allow it once more   2) abort (tell the agent to try something else)' : '  1) allow for this session   2) always allow (saved in sandbox.network.allow)   3) keep blocked');
    io.write(`${out.join('\n')}\n`);
    for (;;) {
      const answer = await io.ask(`choice [1-${fixed.length}] › `, signal);
      if (answer === undefined) return { action: 'deny', feedback: 'cancelled by the user' };
      const { choice } = parseChoice(answer);
      const decision = choice === undefined || choice < 1 ? undefined : fixed[choice - 1];
      if (decision) return decision;
      io.write(fixed.length === 2 ? 'Type 1 or 2.\n' : 'Type 1, 2 or 3.\n');
    }
  }

  const edit = request.command !== undefined;
  out.push(`  1) allow   2) always allow   3) deny [reason]${edit ? '   4) edit the command' : ''}`);
  io.write(`${out.join('\n')}\n`);
  const max = edit ? 4 : 3;
  for (;;) {
    const answer = await io.ask(`choice [1-${max}] › `, signal);
    if (answer === undefined) return { action: 'deny', feedback: 'cancelled by the user' };
    const { choice, rest } = parseChoice(answer);
    if (choice === 1) return { action: 'allow' };
    if (choice === 2) return { action: 'always' };
    if (choice === 3) return rest ? { action: 'deny', feedback: rest } : { action: 'deny' };
    if (choice === 4 && edit) {
      const command = rest || (await io.ask(`new command (was: ${request.command}) › `, signal))?.trim();
      if (command === undefined) return { action: 'deny', feedback: 'cancelled by the user' };
      if (command) return { action: 'edit', command };
      io.write('No command entered.\n');
      continue;
    }
    io.write(`Type a number from 1 to ${max} (for example "3 use pnpm instead" to deny with a reason).\n`);
  }
}

/** Each question in turn: numbered options (the last is "Other"), comma-separated numbers when several may be chosen. */
export async function askUserMenu(io: MenuIO, questions: readonly AskUserQuestion[], signal: AbortSignal): Promise<AskUserAnswers | undefined> {
  const c = io.color;
  const answers: AskUserAnswers['answers'] = [];
  for (const [qi, q] of questions.entries()) {
    const options = q.options.some(isOther) ? q.options : [...q.options, { label: 'Other', description: 'Type your own answer.' }];
    const lines = [
      style(`? ${questions.length > 1 ? `(${qi + 1}/${questions.length}) ` : ''}[${q.header}] ${q.question}`, 'cyan', c),
      ...options.map((o, i) => `  ${i + 1}) ${o.label}${o.description ? style(` — ${o.description}`, 'dim', c) : ''}`),
    ];
    io.write(`${lines.join('\n')}\n`);
    const hint = q.multiSelect ? `choose one or more, e.g. 1,3 [1-${options.length}]` : `choice [1-${options.length}]`;
    for (;;) {
      const answer = await io.ask(`${hint} › `, signal);
      if (answer === undefined) return undefined;
      const text = answer.trim();
      if (!text) {
        io.write('Pick an option, or type your own answer.\n');
        continue;
      }
      const numbers = /^\d+(\s*,\s*\d+)*$/.test(text) ? [...new Set(text.split(',').map((n) => Number(n.trim())))] : undefined;
      if (!numbers) {
        // Free text is an "Other" answer.
        answers.push({ header: q.header, selected: [otherLabel(options)], other: text });
        break;
      }
      if (numbers.some((n) => n < 1 || n > options.length) || (!q.multiSelect && numbers.length > 1)) {
        io.write(q.multiSelect ? `Use numbers from 1 to ${options.length}, separated by commas.\n` : `Type one number from 1 to ${options.length}.\n`);
        continue;
      }
      const chosen = numbers.map((n) => options[n - 1]!);
      let other: string | undefined;
      if (chosen.some(isOther)) {
        other = (await io.ask('your answer › ', signal))?.trim();
        if (other === undefined) return undefined;
      }
      answers.push({ header: q.header, selected: chosen.map((o) => o.label), ...(other ? { other } : {}) });
      break;
    }
  }
  return { answers };
}

/** Shows the plan; 1 approve and auto-approve its edits, 2 approve, 3 modify (asks what to change). */
export async function planReviewMenu(io: MenuIO, plan: PlanForReview, signal: AbortSignal): Promise<PlanDecision> {
  const c = io.color;
  const rule = '─'.repeat(60);
  io.write(
    [
      style(`── Plan: ${plan.path} ${'─'.repeat(Math.max(3, 50 - plan.path.length))}`, 'cyan', c),
      plan.content.trimEnd(),
      style(rule, 'cyan', c),
      '  1) approve, and let its edits run without asking   2) approve   3) modify [what to change]',
    ].join('\n') + '\n',
  );
  for (;;) {
    const answer = await io.ask('choice [1-3] › ', signal);
    if (answer === undefined) return { action: 'modify', feedback: 'The user cancelled the review.' };
    const { choice, rest } = parseChoice(answer);
    if (choice === 1) return { action: 'approve_auto' };
    if (choice === 2) return { action: 'approve' };
    if (choice === 3) {
      const feedback = rest || (await io.ask('what should change? › ', signal))?.trim();
      if (feedback === undefined) return { action: 'modify', feedback: 'The user cancelled the review.' };
      if (feedback) return { action: 'modify', feedback };
      io.write('Say what should change, or pick 1 or 2.\n');
      continue;
    }
    io.write('Type 1, 2 or 3.\n');
  }
}

/** "3 use pnpm" → { choice: 3, rest: "use pnpm" }; no leading number → choice undefined. */
function parseChoice(answer: string): { choice: number | undefined; rest: string } {
  const m = /^\s*(\d+)[.)]?\s*(.*)$/s.exec(answer);
  return m ? { choice: Number(m[1]), rest: m[2]!.trim() } : { choice: undefined, rest: answer.trim() };
}

function isOther(option: { label: string }): boolean {
  return option.label.trim().toLowerCase() === 'other';
}

function otherLabel(options: ReadonlyArray<{ label: string }>): string {
  return options.find(isOther)?.label ?? 'Other';
}

function renderDiff(diff: string, color: boolean): string[] {
  const lines = diff.replace(/\n$/, '').split('\n');
  const shown = lines.slice(0, MAX_DIFF_LINES).map((l) => {
    const kind = l.startsWith('+') && !l.startsWith('+++') ? 'green' : l.startsWith('-') && !l.startsWith('---') ? 'red' : 'dim';
    return `  ${style(l, kind, color)}`;
  });
  if (lines.length > MAX_DIFF_LINES) shown.push(style(`  … ${lines.length - MAX_DIFF_LINES} more lines`, 'dim', color));
  return shown;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
