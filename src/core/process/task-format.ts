import type { TaskInfo } from './background-task';

/** How the process tools describe a task to the model: one line, the same everywhere. */
export function describeTask(info: TaskInfo, now = Date.now()): string {
  const parts = [info.id, stateText(info), `pid ${info.pid ?? '?'}`, formatDuration((info.endedAt ?? now) - info.startedAt), plural(info.lines, 'line')];
  return `${parts.join(' · ')} · ${oneLine(info.command, 120)}`;
}

export function stateText(info: TaskInfo): string {
  if (info.state === 'RUNNING') return 'RUNNING';
  const how = info.signal ? info.signal : info.exitCode !== null ? `exit ${info.exitCode}` : '';
  return how ? `${info.state} (${how})` : info.state;
}

/**
 * The words a duration is said in. English is the default (what the model reads); a front end
 * passes its display language's words, so the chat, the terminal and the model share one rounding.
 */
export interface DurationUnits {
  ms(n: number): string;
  /** `n` is already rounded for showing ("3.2", "12"). */
  s(n: string): string;
  minS(m: number, s: number): string;
  hMin(h: number, m: number): string;
}

export const ENGLISH_DURATION: DurationUnits = {
  ms: (n) => `${n} ms`,
  s: (n) => `${n} s`,
  minS: (m, s) => `${m} min ${s} s`,
  hMin: (h, m) => `${h} h ${m} min`,
};

/** "80 ms", "3.2 s", "12 s", "2 min 5 s", "1 h 3 min": tenths below 10 s, whole units above. */
export function formatDuration(ms: number, units: DurationUnits = ENGLISH_DURATION): string {
  const whole = Math.max(0, Math.round(ms));
  if (whole < 1000) return units.ms(whole);
  const s = whole / 1000;
  if (s < 60) return units.s(s.toFixed(s < 10 ? 1 : 0));
  const m = Math.floor(s / 60);
  return m < 60 ? units.minS(m, Math.round(s % 60)) : units.hMin(Math.floor(m / 60), m % 60);
}

/**
 * One line of at most `max` characters, clipped with an ellipsis. `breaks: 'marked'` (the default)
 * shows line breaks as ⏎ and keeps other spacing, so a command reads as typed; `'spaces'` folds every
 * run of whitespace into one space, for prose (a description, an error message).
 */
export function oneLine(text: string, max: number, breaks: 'marked' | 'spaces' = 'marked'): string {
  const flat = (breaks === 'marked' ? text.replace(/\s*\n\s*/g, ' ⏎ ') : text.replace(/\s+/g, ' ')).trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** `1 line`, `240 lines`, `2,500,000 lines`. */
export function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}
