import { readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import * as z from 'zod';
import { resolveOpendevHome } from '../config/opendev-home';
import { loadTemplate, renderTemplate } from '../templates';
import { renderTodos } from '../todos/todo-store';
import { ToolError, toolFailure, type Tool } from './tool';
import { requireTodoStore } from './write-todos';

/** How an approval's summary begins: the executor (plan-approved signal) and a resumed session recognise approvals by it. */
export const PLAN_APPROVED_SUMMARY = '✓ Plan approved';

export const HEADLESS_PLAN_MESSAGE =
  'no user is available to review the plan (non-interactive run); proceed with your best judgement and state your assumptions';

/** The seven sections of a plan (paper §2.2.2), matched case-insensitively against its headings. */
export const PLAN_SECTIONS = [
  { title: 'Goal', names: ['goal', 'goals'] },
  { title: 'Context', names: ['context'] },
  { title: 'Files to modify', names: ['files to modify'] },
  { title: 'Files to create', names: ['files to create'] },
  { title: 'Implementation steps', names: ['implementation steps'] },
  { title: 'Verification', names: ['verification'] },
  { title: 'Risks', names: ['risks', 'risk'] },
] as const;

const MAX_PLAN_BYTES = 200_000;

const schema = z.lazy(() => z.object({
  plan_file_path: z
    .string()
    .trim()
    .min(1)
    .describe('The path the Planner returned.'),
}));

/**
 * Shows a plan to the user for approval. The plan file may live inside the workspace (the Planner
 * writes `.opendev/plans/<name>.md` with write_file, which is workspace-bounded) or under
 * `OPENDEV_HOME/plans/`; anything else is refused. Main agent only: approval turns the plan's
 * implementation steps into the todo list.
 */
export const presentPlanTool: Tool<typeof schema> = {
  name: 'present_plan',
  category: 'meta',
  readOnly: true,
  schema,
  async run(args, ctx) {
    if (ctx.agent.isSubagent) {
      throw new ToolError('permission', 'present_plan is for the main agent only: put the plan path in your task_complete summary instead.');
    }
    const absolute = resolvePlanPath(ctx.workspaceRoot, args.plan_file_path);
    const shown = relative(ctx.workspaceRoot, absolute).startsWith('..') ? absolute : relative(ctx.workspaceRoot, absolute);
    const info = await stat(absolute).catch(() => undefined);
    if (!info || !info.isFile()) throw new ToolError('not_found', `${shown} does not exist. Pass the path the Planner returned.`);
    if (info.size > MAX_PLAN_BYTES) throw new ToolError('other', `${shown} is ${info.size} bytes; a plan should be far shorter.`);
    const content = await readFile(absolute, 'utf8');

    const plan = parsePlan(content);
    if (plan.missing.length > 0) {
      return toolFailure(
        'other',
        `the plan in ${shown} is missing ${plan.missing.length === 1 ? 'the section' : 'sections'}: ${plan.missing.join(', ')}. ` +
          `A plan needs these seven headings: ${PLAN_SECTIONS.map((s) => s.title).join(', ')} ` +
          '(write "None" under one that does not apply). Fix the file, then call present_plan again.',
      );
    }
    if (plan.steps.length === 0) {
      return toolFailure(
        'other',
        `the "Implementation steps" section of ${shown} has no numbered or bulleted steps. List each step as "1. …" or "- …", then call present_plan again.`,
      );
    }
    const store = requireTodoStore(ctx);
    if (!ctx.ui.reviewPlan) return toolFailure('other', HEADLESS_PLAN_MESSAGE);

    const decision = await ctx.ui.reviewPlan({ path: absolute, content }, ctx.signal);
    if (decision.action === 'modify') {
      const feedback = decision.feedback.trim() || '(no details given)';
      return {
        ok: true,
        output: renderTemplate(planTemplate('plan/modify.md'), { PLAN_PATH: shown, FEEDBACK: feedback }),
        summary: `✎ Plan needs changes: ${feedback.replace(/\s+/g, ' ')}`.slice(0, 200),
      };
    }

    const todos = store.fromPlanSteps(plan.steps);
    const auto = decision.action === 'approve_auto';
    if (auto) ctx.mode.autoApproveEdits = true;
    if (ctx.mode.mode !== 'normal') {
      ctx.mode.mode = 'normal';
      ctx.ui.onModeChange?.('normal');
    }
    return {
      ok: true,
      output: renderTemplate(planTemplate('plan/approved.md'), {
        PLAN_PATH: shown,
        APPROVAL: auto
          ? 'approved the plan and auto-approved its edits: they will run without asking'
          : 'approved the plan; each edit will still be shown to them for approval',
        TODO_COUNT: String(todos.length),
        TODOS: renderTodos(todos),
      }),
      summary: `${PLAN_APPROVED_SUMMARY}${auto ? ' (edits auto-approved)' : ''}: ${todos.length} todo${todos.length === 1 ? '' : 's'} from ${shown}`.slice(0, 200),
    };
  },
};

/** Inside the workspace or under OPENDEV_HOME/plans; relative paths are relative to the workspace. */
export function resolvePlanPath(workspaceRoot: string, filePath: string): string {
  const expanded = filePath === '~' || filePath.startsWith('~/') ? join(homedir(), filePath.slice(1)) : filePath;
  const absolute = isAbsolute(expanded) ? resolve(expanded) : resolve(workspaceRoot, expanded);
  const plansDir = join(resolveOpendevHome(), 'plans');
  if (isInside(workspaceRoot, absolute) || isInside(plansDir, absolute)) return absolute;
  throw new ToolError('permission', `${filePath} is outside the workspace and ${plansDir}; plan files must live in one of them.`);
}

export interface ParsedPlan {
  /** Titles of the required sections that have no heading. */
  missing: string[];
  /** Implementation steps: first line = the step, further lines = its details. */
  steps: string[];
}

/** Finds the seven section headings (ATX headings outside code fences) and the implementation steps. */
export function parsePlan(markdown: string): ParsedPlan {
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  const headings: Array<{ line: number; level: number; text: string }> = [];
  let fence: string | undefined;
  lines.forEach((line, i) => {
    const f = /^\s*(```+|~~~+)/.exec(line);
    if (f) {
      if (!fence) fence = f[1]![0];
      else if (f[1]![0] === fence) fence = undefined;
      return;
    }
    if (fence) return;
    const h = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) headings.push({ line: i, level: h[1]!.length, text: h[2]! });
  });

  const sectionOf = (text: string) => {
    const norm = normalizeHeading(text);
    return PLAN_SECTIONS.find((s) => s.names.some((n) => norm === n || new RegExp(`^${n}\\b`).test(norm)));
  };
  const found = new Set(headings.map((h) => sectionOf(h.text)?.title).filter(Boolean));
  const missing = PLAN_SECTIONS.filter((s) => !found.has(s.title)).map((s) => s.title);

  const stepsHeading = headings.find((h) => sectionOf(h.text)?.title === 'Implementation steps');
  if (!stepsHeading) return { missing, steps: [] };
  const end = headings.find((h) => h.line > stepsHeading.line && h.level <= stepsHeading.level)?.line ?? lines.length;
  const subHeadings = headings.filter((h) => h.line > stepsHeading.line && h.line < end);
  const steps = subHeadings.length > 0
    ? subHeadings.map((h, i) => joinStep(stripNumber(h.text), lines.slice(h.line + 1, subHeadings[i + 1]?.line ?? end)))
    : listItems(lines.slice(stepsHeading.line + 1, end));
  return { missing, steps: steps.filter((s) => s.trim() !== '') };
}

const ITEM = /^(\s*)(?:\d+[.)]|[-*+])\s+(?:\[[ xX]\]\s+)?(.*)$/;

/** Top-level list items; nested items and continuation lines become the step's details. */
function listItems(section: string[]): string[] {
  const items = section.map((line) => ITEM.exec(line)).filter((m): m is RegExpExecArray => m !== null);
  if (items.length === 0) return [];
  const top = Math.min(...items.map((m) => m[1]!.replace(/\t/g, '    ').length));
  const steps: Array<{ head: string; details: string[] }> = [];
  for (const line of section) {
    const m = ITEM.exec(line);
    if (m && m[1]!.replace(/\t/g, '    ').length === top) steps.push({ head: m[2]!, details: [] });
    else if (steps.length > 0 && line.trim() !== '') steps[steps.length - 1]!.details.push(line);
  }
  return steps.map((s) => joinStep(s.head, s.details));
}

function joinStep(head: string, details: string[]): string {
  const body = details.filter((l) => l.trim() !== '');
  const indent = Math.min(...body.map((l) => /^\s*/.exec(l)![0].length));
  const dedented = body.map((l) => l.slice(Number.isFinite(indent) ? indent : 0));
  return [cleanInline(head), ...dedented].join('\n').trim();
}

function normalizeHeading(text: string): string {
  return stripNumber(cleanInline(text))
    .toLowerCase()
    .replace(/[:.]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function stripNumber(text: string): string {
  return text.replace(/^(?:\d+|[ivx]+|[a-z])[.)]\s+/i, '').replace(/^(?:step|section)\s+\d+\s*[:.)-]\s*/i, '').trim();
}

function cleanInline(text: string): string {
  return text.replace(/\*\*|__/g, '').trim();
}

function isInside(dir: string, file: string): boolean {
  const rel = relative(resolve(dir), file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

function planTemplate(name: string): string {
  const text = loadTemplate(name);
  if (text === undefined) throw new Error(`template ${name} is missing`);
  return text;
}
