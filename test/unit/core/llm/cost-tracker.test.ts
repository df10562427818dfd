import * as assert from 'node:assert/strict';
import { callCost, CostTracker } from '../../../../src/core/llm/cost-tracker';

const sonnet = { pricing: { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3 } };
const noCacheRate = { pricing: { inputPerMTok: 2, outputPerMTok: 8 } };
const unpriced = {};

function close(actual: number | undefined, expected: number): void {
  assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-12, `${actual} ≠ ${expected}`);
}

describe('cost tracker', () => {
  it('prices uncached input, cached input at the cache-read rate, and output', () => {
    // 10,000 prompt tokens of which 8,000 cached; 1,000 output.
    close(callCost({ promptTokens: 10_000, cachedTokens: 8_000, outputTokens: 1_000 }, sonnet), (2_000 * 3 + 8_000 * 0.3 + 1_000 * 15) / 1e6);
  });

  it('prices cached tokens at the input rate when no cache-read rate is known', () => {
    close(callCost({ promptTokens: 1_000, cachedTokens: 500, outputTokens: 100 }, noCacheRate), (1_000 * 2 + 100 * 8) / 1e6);
  });

  it('adds calls up, tokens and dollars', () => {
    const t = new CostTracker();
    close(t.add({ promptTokens: 10_000, cachedTokens: 8_000, outputTokens: 1_000 }, sonnet), 0.0234);
    t.add({ promptTokens: 1_000_000, cachedTokens: 0, outputTokens: 0 }, noCacheRate);
    const s = t.snapshot();
    assert.equal(s.inputTokens, 1_010_000);
    assert.equal(s.cachedTokens, 8_000);
    assert.equal(s.outputTokens, 1_000);
    assert.equal(s.calls, 2);
    close(s.usd, 0.0234 + 2);
  });

  it('has no dollar figure while no call had pricing, and counts the unpriced calls', () => {
    const t = new CostTracker();
    assert.equal(t.add({ promptTokens: 100, cachedTokens: 0, outputTokens: 10 }, unpriced), undefined);
    t.add({ promptTokens: 100, cachedTokens: 0, outputTokens: 10 });
    assert.deepEqual(t.snapshot(), { inputTokens: 200, cachedTokens: 0, outputTokens: 20, usd: undefined, calls: 2 });
    assert.equal(t.unpricedCalls, 2);
    t.add({ promptTokens: 1_000_000, cachedTokens: 0, outputTokens: 0 }, noCacheRate);
    close(t.snapshot().usd, 2);
    assert.equal(t.unpricedCalls, 2);
  });

  it('starts empty', () => {
    assert.deepEqual(new CostTracker().snapshot(), { inputTokens: 0, cachedTokens: 0, outputTokens: 0, usd: undefined, calls: 0 });
  });

  it('restores a saved snapshot and keeps counting from it', () => {
    const saved = { inputTokens: 5_000, cachedTokens: 1_000, outputTokens: 500, usd: 0.5, calls: 3 };
    const t = new CostTracker(saved);
    assert.deepEqual(t.snapshot(), saved);
    t.add({ promptTokens: 1_000_000, cachedTokens: 0, outputTokens: 0 }, noCacheRate);
    const s = t.snapshot();
    assert.equal(s.calls, 4);
    assert.equal(s.inputTokens, 1_005_000);
    close(s.usd, 2.5);

    const unknown = new CostTracker();
    unknown.restore({ inputTokens: 10, cachedTokens: 0, outputTokens: 1, usd: undefined, calls: 1 });
    assert.equal(unknown.snapshot().usd, undefined);
    unknown.restore({ inputTokens: Number.NaN, cachedTokens: -4, outputTokens: 1, usd: Number.NaN, calls: 1.7 });
    assert.deepEqual(unknown.snapshot(), { inputTokens: 0, cachedTokens: 0, outputTokens: 1, usd: undefined, calls: 1 });
  });

  it('counts reasoning tokens apart, priced once as the output they are part of, and restores them', () => {
    const t = new CostTracker();
    const withReasoning = t.add({ promptTokens: 0, cachedTokens: 0, outputTokens: 1_000_000, reasoningTokens: 600_000 }, noCacheRate);
    close(withReasoning, 8);
    t.add({ promptTokens: 0, cachedTokens: 0, outputTokens: 10 }, noCacheRate);
    const s = t.snapshot();
    assert.equal(s.reasoningTokens, 600_000);
    assert.equal(s.outputTokens, 1_000_010);
    assert.equal(new CostTracker(s).snapshot().reasoningTokens, 600_000);
  });
});
