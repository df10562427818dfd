import * as assert from 'node:assert/strict';
import { adaptiveTailSize, splitForCompaction } from '../../../../../src/core/context/compaction/compaction-split';
import { estimateTokens } from '../../../../../src/core/context/token-estimate';
import { isValidHistory } from '../../../../../src/core/context/validated-messages';
import type { Message } from '../../../../../src/core/messages';
import { FOLLOW_UP, TASK, workHistory } from './work-history';

/** A valid history of `rounds` rounds: some with several parallel calls, some plain answers, some user messages. */
function randomHistory(rounds: number, seed: number): Message[] {
  let state = seed;
  const rand = (n: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
  const history: Message[] = [{ role: 'user', content: 'the task' }];
  let id = 0;
  for (let r = 0; r < rounds; r++) {
    const kind = rand(4);
    if (kind === 0) history.push({ role: 'user', content: `follow-up ${r}` });
    else if (kind === 1) history.push({ role: 'assistant', content: `answer ${r}`, toolCalls: [] });
    else {
      const calls = Array.from({ length: 1 + rand(4) }, () => ({ id: `c${id++}`, name: 'read_file', arguments: '{"file_path":"a.ts"}' }));
      history.push({ role: 'assistant', content: '', toolCalls: calls });
      for (const c of calls) history.push({ role: 'tool', toolCallId: c.id, name: c.name, content: 'x'.repeat(rand(3000)), isError: false });
    }
  }
  return history;
}

describe('where a full compaction cuts the history', () => {
  it('keeps 3 to 10 recent messages, more for longer conversations', () => {
    assert.deepEqual([4, 12, 20, 40, 200].map(adaptiveTailSize), [3, 3, 5, 10, 10]);
  });

  it('keeps the task first and the latest user request, and never starts the tail on a tool result', () => {
    const history = workHistory();
    const split = splitForCompaction(history);
    assert.deepEqual(split.head, [{ role: 'user', content: TASK }]);
    assert.equal(split.tail[0]!.role, 'assistant');
    assert.ok(split.tail.length >= adaptiveTailSize(history.length));
    assert.deepEqual(split.lastRequest, { role: 'user', content: FOLLOW_UP });
    assert.deepEqual([...split.head, ...split.middle, ...split.tail], history, 'the three parts are the history, in order');
  });

  it('never separates a tool call from its results, whatever the history and the budget', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const history = randomHistory(5 + (seed % 40), seed);
      for (const budget of [undefined, 100, 2000, 1_000_000]) {
        const split = splitForCompaction(history, budget === undefined ? {} : { tailTokenBudget: budget });
        const kept = [...split.head, { role: 'user' as const, content: 'summary' }, ...split.tail];
        assert.ok(isValidHistory(kept), `seed ${seed}, budget ${budget}: ${JSON.stringify(kept.map((m) => m.role))}`);
        assert.notEqual(split.tail[0]?.role, 'tool');
      }
    }
  });

  it('shrinks a tail that is too large for the window, down to 3 messages', () => {
    const history = workHistory();
    const roomy = splitForCompaction(history);
    const tight = splitForCompaction(history, { tailTokenBudget: 50 });
    assert.ok(tight.tail.length < roomy.tail.length);
    assert.ok(tight.tail.length >= 3);
    assert.ok(estimateTokens(tight.tail) < estimateTokens(roomy.tail));
  });

  it('has nothing to summarise in a conversation that is all recent', () => {
    const history: Message[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello', toolCalls: [] },
      { role: 'user', content: 'how are you' },
    ];
    assert.equal(splitForCompaction(history).middle.length, 0);
  });
});
