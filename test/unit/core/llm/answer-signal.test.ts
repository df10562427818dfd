import * as assert from 'node:assert/strict';
import { signalAnswers } from '../../../../src/core/llm/answer-signal';
import type { LlmProvider, ProviderEvent } from '../../../../src/core/llm/provider';

function provider(events: ProviderEvent[], failure?: Error): LlmProvider {
  return {
    id: 'test',
    async *stream() {
      for (const event of events) yield event;
      if (failure) throw failure;
    },
  };
}

async function drain(p: LlmProvider, seen: string[]): Promise<void> {
  for await (const event of p.stream({ model: 'm', messages: [] } as never, new AbortController().signal)) seen.push(event.type);
}

describe('signalAnswers', () => {
  it('signals when the first event of a call arrives, before the caller sees it, once per call', async () => {
    const seen: string[] = [];
    const p = signalAnswers(provider([{ type: 'text', delta: 'Hel' }, { type: 'text', delta: 'lo.' }]), () => seen.push('answer'));
    await drain(p, seen);
    assert.deepEqual(seen, ['answer', 'text', 'text']);
  });

  it('signals a call that fails before any event, and passes the failure on', async () => {
    const seen: string[] = [];
    const p = signalAnswers(provider([], new Error('HTTP 500')), () => seen.push('answer'));
    await assert.rejects(drain(p, seen), /HTTP 500/);
    assert.deepEqual(seen, ['answer']);
  });

  it('a signal that throws never breaks the call', async () => {
    const seen: string[] = [];
    const p = signalAnswers(provider([{ type: 'text', delta: 'ok' }]), () => {
      throw new Error('observer bug');
    });
    await drain(p, seen);
    assert.deepEqual(seen, ['text']);
  });
});
