import * as assert from 'node:assert/strict';
import type { SessionSummary } from '../../../src/shared/protocol';
import { filterSessions } from '../../../src/shared/session-search';

const session = (id: string, title: string, firstPrompt: string): SessionSummary => ({ id, title, firstPrompt, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', messageCount: 2 });

describe('history search', () => {
  const sessions = [session('aaaaaaaa', 'Fix the parser', 'The JSON parser crashes on empty arrays'), session('bbbbbbbb', 'Release notes', 'Write the release notes for 1.2'), session('cccccccc', 'Math helpers', 'What does math.ts export?')];

  it('matches the title or the first message, case-insensitively, every word', () => {
    assert.deepEqual(filterSessions(sessions, 'PARSER').map((s) => s.id), ['aaaaaaaa']);
    assert.deepEqual(filterSessions(sessions, 'empty arrays').map((s) => s.id), ['aaaaaaaa'], 'words from the first message');
    assert.deepEqual(filterSessions(sessions, 'notes 1.2').map((s) => s.id), ['bbbbbbbb']);
    assert.deepEqual(filterSessions(sessions, 'math parser').map((s) => s.id), []);
  });

  it('an empty query keeps every session in order', () => {
    assert.deepEqual(filterSessions(sessions, '  ').map((s) => s.id), ['aaaaaaaa', 'bbbbbbbb', 'cccccccc']);
  });
});
