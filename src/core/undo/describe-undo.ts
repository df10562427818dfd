import { loadTemplate, renderTemplate } from '../templates';
import type { StepRecord } from './operation-log';

/** What /undo did (or why it did nothing), for the user and, when files changed, for the model. */
export interface UndoOutcome {
  status: 'undone' | 'nothing' | 'unavailable' | 'failed';
  /** For the user. */
  message: string;
  /** The note the model gets (a user message), so it does not assume the undone state. */
  note?: string;
  /** The steps undone, newest first. */
  steps?: number[];
}

/** One line of `/undo list`. */
export interface StepSummary {
  step: number;
  tools: string[];
  changed: number;
  at: string;
  undone: boolean;
  /** The ids of the tool calls that ran in the step (empty for steps logged before they were kept). */
  calls: string[];
}

export interface UndoReport {
  steps: readonly StepRecord[];
  restored: readonly string[];
  removed: readonly string[];
  /** Paths that changed again after the undone step (by the user or later); their newer content was replaced. */
  changedSince: readonly string[];
  /** Files over the size cap that the steps touched: not restored. */
  notRestored: readonly string[];
}

const SHOWN_PATHS = 20;

export function describeUndo(report: UndoReport): UndoOutcome {
  const numbers = report.steps.map((s) => s.step);
  const label = stepsLabel(numbers);
  const tools = [...new Set(report.steps.flatMap((s) => s.tools))].join(', ');
  const lines = [`Undid ${label}${tools ? ` (${tools})` : ''}: ${count(report.restored.length, 'file')} restored, ${count(report.removed.length, 'file')} removed.`];
  lines.push(...listed('restored', report.restored), ...listed('removed', report.removed));
  if (report.changedSince.length > 0) lines.push(`Changed again after ${label} and put back anyway: ${report.changedSince.join(', ')}.`);
  if (report.notRestored.length > 0) lines.push(`Not restored (over the snapshot size cap): ${report.notRestored.join(', ')}.`);
  const files = [...report.restored.map((p) => `- restored: ${p}`), ...report.removed.map((p) => `- removed: ${p}`)].join('\n');
  const template = loadTemplate('undo/undone.md');
  const note = template ? renderTemplate(template, { STEPS: label, FILES: files }) : undefined;
  return { status: 'undone', message: lines.join('\n'), note, steps: numbers };
}

/** `/undo list`: the steps that changed files, newest first. */
export function describeHistory(steps: readonly StepSummary[]): string {
  if (steps.length === 0) return 'No step of this session has changed files yet.';
  const lines = [...steps].reverse().map((s) => `  step ${String(s.step).padStart(3)}  ${s.at.slice(11, 19)}  ${count(s.changed, 'file')}  ${s.tools.join(', ')}${s.undone ? '  (undone)' : ''}`);
  return ['Steps that changed files (newest first):', ...lines, '/undo undoes the newest; /undo <step> goes back to just before that step.'].join('\n');
}

export function stepsLabel(numbers: readonly number[]): string {
  if (numbers.length === 1) return `step ${numbers[0]}`;
  const sorted = [...numbers].sort((a, b) => a - b);
  return `steps ${sorted.join(', ')}`;
}

function listed(verb: string, paths: readonly string[]): string[] {
  const shown = paths.slice(0, SHOWN_PATHS).map((p) => `  ${verb} ${p}`);
  if (paths.length > SHOWN_PATHS) shown.push(`  … and ${paths.length - SHOWN_PATHS} more ${verb}`);
  return shown;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
