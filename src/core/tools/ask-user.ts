import * as z from 'zod';
import type { AskUserAnswers, AskUserQuestion, UICallback } from '../ui';
import { toolFailure, type Tool, type ToolResult } from './tool';

/** The free-text choice appended to every question; the model never passes it itself. */
export const OTHER_OPTION = { label: 'Other', description: 'Type your own answer.' } as const;

export const HEADLESS_ASK_MESSAGE =
  'no user is available to answer (non-interactive run); proceed with your best judgement and state your assumptions';

const option = z.object({
  label: z.string().trim().min(1).max(60).describe('1–5 words.'),
  description: z
    .string({ error: 'every option needs a description' })
    .trim()
    .min(1, 'every option needs a description')
    .describe('What choosing it means.'),
});

const question = z.object({
  header: z
    .string()
    .trim()
    .min(1)
    .max(12, 'header must be at most 12 characters (a short chip label such as "Auth method")')
    .describe('Chip label, e.g. Auth method.'),
  question: z.string().trim().min(1).describe('The full question.'),
  options: z
    .array(option)
    .min(2, 'each question needs 2 to 4 options')
    .max(4, 'each question needs 2 to 4 options')
    .superRefine((options, check) => {
      const labels = options.map((o) => o.label.toLowerCase());
      if (labels.includes(OTHER_OPTION.label.toLowerCase())) {
        check.addIssue({ code: 'custom', message: 'do not include an "Other" option: one with free text is added automatically' });
      }
      if (new Set(labels).size !== labels.length) check.addIssue({ code: 'custom', message: 'option labels must be distinct' });
    })
    .describe('2–4 distinct options; a free-text Other is added for you.'),
  multiSelect: z.boolean().default(false).describe('Allow choosing several.'),
});

/** ≤4 questions, header ≤12 chars, 2–4 described options each (shared with the Ask-User subagent). */
export const askUserQuestionsSchema = z
  .array(question)
  .min(1, 'ask at least one question')
  .max(4, 'ask at most 4 questions per call');

const schema = z.lazy(() => z.object({ questions: askUserQuestionsSchema.describe('The questions, asked together.') }));

export const askUserTool: Tool<typeof schema> = {
  name: 'ask_user',
  category: 'user',
  readOnly: true,
  schema,
  async run(args, ctx) {
    return askQuestions(ctx.ui, args.questions, ctx.signal);
  },
};

/**
 * Shows the questions (each with the automatic "Other" choice) through the front end and turns
 * the answers into a result the model can read. Used by ask_user and the Ask-User subagent.
 */
export async function askQuestions(
  ui: UICallback,
  questions: readonly AskUserQuestion[],
  signal: AbortSignal,
): Promise<ToolResult> {
  if (!ui.askUser) return toolFailure('other', HEADLESS_ASK_MESSAGE);
  const shown: AskUserQuestion[] = questions.map((q) => ({ ...q, options: [...q.options, { ...OTHER_OPTION }] }));
  const answers = await ui.askUser(shown, signal);
  if (!answers || signal.aborted) {
    return {
      ok: true,
      output:
        'The user declined to answer (the questions were dismissed). Do not ask the same questions again; ' +
        'continue with your best judgement and state your assumptions, or stop and explain what you need.',
      summary: `✗ User declined to answer ${plural(questions.length, 'question')}`,
    };
  }
  const lines = questions.map((q, i) => `${i + 1}. [${q.header}] ${q.question}\n   → ${describeAnswer(answerFor(answers, q, i))}`);
  const first = answerFor(answers, questions[0]!, 0);
  const summary =
    questions.length === 1
      ? `✓ User answered ${questions[0]!.header}: ${describeAnswer(first)}`
      : `✓ User answered ${plural(questions.length, 'question')} (${questions.map((q) => q.header).join(', ')})`;
  return { ok: true, output: `The user answered:\n${lines.join('\n')}`, summary: summary.slice(0, 200) };
}

/**
 * The Ask-User subagent's task: the same questions as ask_user, as JSON (`{"questions": […]}` or a
 * bare array). Returns the questions or a message saying what is wrong.
 */
export function parseAskUserTask(task: string): { questions: AskUserQuestion[] } | { error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(task);
  } catch {
    return {
      error:
        'The Ask-User subagent takes its task as JSON: {"questions": [{"header", "question", "options": [{"label", "description"}], "multiSelect"}]}, ' +
        'the same format as ask_user. Call ask_user directly if you have it.',
    };
  }
  const parsed = askUserQuestionsSchema.safeParse(Array.isArray(raw) ? raw : (raw as { questions?: unknown } | null)?.questions);
  if (!parsed.success) return { error: `Invalid Ask-User questions:\n${z.prettifyError(parsed.error)}` };
  return { questions: parsed.data };
}

type Answer = AskUserAnswers['answers'][number] | undefined;

function answerFor(answers: AskUserAnswers, q: AskUserQuestion, index: number): Answer {
  return answers.answers[index] ?? answers.answers.find((a) => a.header === q.header);
}

function describeAnswer(answer: Answer): string {
  if (!answer) return '(no answer)';
  const chosen = answer.selected.filter((label) => label !== OTHER_OPTION.label);
  const other = answer.other?.trim();
  const parts = [...chosen];
  if (other) parts.push(`Other: "${other}"`);
  return parts.length === 0 ? '(no answer)' : parts.join(', ');
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
