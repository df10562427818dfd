import type { SessionSummary } from './protocol';

/**
 * The history view's search: every word of the query (case-insensitive) must appear in the
 * session's title or its first message. An empty query keeps every session, in order.
 */
export function filterSessions(sessions: readonly SessionSummary[], query: string): SessionSummary[] {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...sessions];
  return sessions.filter((s) => {
    const haystack = `${s.title}\n${s.firstPrompt}`.toLocaleLowerCase();
    return words.every((w) => haystack.includes(w));
  });
}
