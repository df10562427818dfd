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

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${Math.round(s % 60)} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s*\n\s*/g, ' ⏎ ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** `1 line`, `240 lines`, `2,500,000 lines`. */
export function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}
