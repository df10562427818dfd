import * as assert from 'node:assert/strict';
import { statusText, statusTooltip, type ChatStatus } from '../../../../src/vscode/status/status-text';

const base: ChatStatus = { provider: 'openai', model: 'gpt-4.1', mode: 'normal', busy: false, catalogWindow: 1_047_576 };

describe('status bar text', () => {
  it('shows the model and the mode; the context percentage once there is a reading', () => {
    assert.equal(statusText(base), '$(hubot) gpt-4.1 · normal');
    const reading = { ...base, mode: 'plan' as const, context: { pressure: 0.4216, promptTokens: 42_160, contextWindow: 100_000 } };
    assert.equal(statusText(reading), '$(hubot) gpt-4.1 · plan · 42%');
    assert.equal(statusText({ ...reading, busy: true }), '$(loading~spin) gpt-4.1 · plan · 42%', 'a spinner while the agent works');
  });

  it('the tooltip names the provider, the model, the context tokens of the window and the cost', () => {
    const tip = statusTooltip({
      ...base,
      provider: 'openai-compatible',
      baseUrl: 'http://localhost:11434/v1',
      model: 'llama3.1',
      mode: 'plan',
      context: { pressure: 0.1, promptTokens: 12_800, contextWindow: 128_000, lastStage: 'observation_masking', lastFreed: 900 },
      cost: { inputTokens: 12_800, cachedTokens: 0, outputTokens: 420, calls: 2, usd: 0.0123 },
    });
    assert.match(tip, /^Provider: OpenAI-compatible server at http:\/\/localhost:11434\/v1$/m);
    assert.match(tip, /^Model: llama3\.1$/m);
    assert.match(tip, /^Mode: plan/m);
    assert.match(tip, /^Context: 12,800 of 128,000 tokens \(10%\); last reduction: observation masking$/m);
    assert.match(tip, /^Cost: \$0\.0123 \(12,800 in, 420 out, 2 calls\)$/m);
  });

  it('before any call, the tooltip gives the window from the catalogue; an unknown price is said so', () => {
    assert.match(statusTooltip(base), /^Context: 1,047,576-token window, nothing used yet$/m);
    assert.doesNotMatch(statusTooltip(base), /^Cost:/m);
    assert.match(statusTooltip({ ...base, cost: { inputTokens: 10, cachedTokens: 0, outputTokens: 5, calls: 1 } }), /^Cost: price unknown \(10 in, 5 out, 1 call\)$/m);
  });

  it("names the front end's folder when there is one to name (a multi-root workspace), in the text and the tooltip", () => {
    const inApi = { ...base, folder: { name: 'api', path: '/work/api' } };
    assert.equal(statusText(inApi), '$(hubot) gpt-4.1 · normal · $(root-folder) api');
    assert.equal(statusText({ ...inApi, context: { pressure: 0.5, promptTokens: 50, contextWindow: 100 } }), '$(hubot) gpt-4.1 · normal · 50% · $(root-folder) api');
    assert.match(statusTooltip(inApi), /^OpenDev: click to open the chat\nFolder: api \(\/work\/api\)$/m);
    assert.doesNotMatch(statusTooltip(base), /^Folder:/m);
  });

  it('names the OpenDev terminal tab when the status is one of its, and says a click shows it', () => {
    assert.match(statusTooltip({ ...base, terminal: 'OpenDev Agent 2', busy: true }), /^OpenDev in the terminal "OpenDev Agent 2" \(working…\): click to show it$/m);
    assert.match(statusTooltip(base), /^OpenDev: click to open the chat$/m);
  });
});
