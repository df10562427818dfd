// Plain-text formatting shared by slash commands and the terminal renderer (user-facing, not prompts).
import type { FullCompactionReport } from '../context/compaction/full-compaction';
import type { SessionMeta } from '../session/session-store';
import type { Todo } from '../todo';
import type { CostSnapshot } from '../ui';

const TODO_MARK: Record<Todo['status'], string> = { todo: '[ ]', doing: '[~]', done: '[x]' };

export function formatTodos(todos: readonly Todo[]): string {
  if (todos.length === 0) return 'No todos.';
  const done = todos.filter((t) => t.status === 'done').length;
  return [`Todos (${done}/${todos.length} done):`, ...todos.map((t) => `  ${TODO_MARK[t.status]} ${t.id}. ${t.title}`)].join('\n');
}

export function formatCost(cost: CostSnapshot): string {
  const usd = cost.usd === undefined ? 'price unknown for this model' : `$${cost.usd.toFixed(cost.usd < 1 ? 4 : 2)}`;
  const cached = cost.cachedTokens > 0 ? ` (${n(cost.cachedTokens)} cached)` : '';
  return `${n(cost.inputTokens)} input tokens${cached}, ${n(cost.outputTokens)} output tokens, ${cost.calls} model call${cost.calls === 1 ? '' : 's'} · ${usd}`;
}

export function formatSessions(sessions: readonly SessionMeta[], currentId: string | undefined, now = new Date()): string {
  if (sessions.length === 0) return 'No saved sessions for this project yet.';
  const rows = sessions.map((s) => [
    `${s.id === currentId ? '*' : ' '} ${s.id}`,
    s.title || '(untitled)',
    relativeTime(s.updatedAt, now),
    `${s.messageCount} msg${s.messageCount === 1 ? '' : 's'}`,
  ]);
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r) => r.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]!) : cell)).join('  '));
  return [`Sessions in this project (newest first; resume one with opendev --resume <id>):`, ...lines].join('\n');
}

export function relativeTime(iso: string, now = new Date()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  const seconds = Math.max(0, Math.round((now.getTime() - then) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 14) return `${days} d ago`;
  return new Date(then).toISOString().slice(0, 10);
}

/** What /compact did: tokens before and after (local estimates), the fallback if any, the archive. */
export function formatCompaction(r: FullCompactionReport): string {
  const lines = [
    `Compacted the conversation: ${r.messagesSummarised} message${r.messagesSummarised === 1 ? '' : 's'} summarised, ${r.messagesBefore} → ${r.messagesAfter} messages, about ${n(r.tokensBefore)} → ${n(r.tokensAfter)} tokens.`,
  ];
  if (r.fallbackReason) lines.push(`The compact model did not write the summary (${r.fallbackReason}); a plain one-line-per-message summary was used instead.`);
  if (r.tailOutputsMasked > 0) lines.push(`${r.tailOutputsMasked} recent tool output${r.tailOutputsMasked === 1 ? ' was' : 's were'} also reduced to a reference to fit.`);
  lines.push(r.archivePath ? `The full history is archived at ${r.archivePath}` : `The history could not be archived: ${r.archiveError ?? 'unknown error'}.`);
  return lines.join('\n');
}

function n(value: number): string {
  return value.toLocaleString('en-US');
}
