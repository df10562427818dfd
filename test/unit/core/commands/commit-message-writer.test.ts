import * as assert from 'node:assert/strict';
import { cleanCommitMessage, diffForModel, writeCommitMessage } from '../../../../src/core/commands/commit-message-writer';
import { createProvider } from '../../../../src/core/llm/create-provider';
import { FakeProvider, lastUserText } from '../../../fixtures/fake-provider';

const DIFF = 'diff --git a/math.ts b/math.ts\n--- a/math.ts\n+++ b/math.ts\n@@ -1 +1 @@\n-export const PI = 3;\n+export const PI = 3.14159;\n';

/** The commit message call through the real OpenAI SDK against the fake provider on 127.0.0.1. */
describe('writeCommitMessage', function () {
  this.timeout(30_000);
  const fake = new FakeProvider();
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => fake.reset());

  const model = () => ({ provider: createProvider({ provider: 'openai', model: 'gpt-4.1-mini', apiKey: 'sk-unit', baseUrl: fake.openaiBaseUrl, maxAttempts: 1 }), model: 'gpt-4.1-mini' });

  it('sends the diff and the draft with the template as the system prompt, and returns the answer cleaned', async () => {
    fake.enqueue({ text: '```\nMake PI precise\n\nThree was close but not close enough.\n```' });
    const message = await writeCommitMessage(model(), { diff: DIFF, draft: 'fix pi' }, new AbortController().signal);
    assert.equal(message, 'Make PI precise\n\nThree was close but not close enough.');
    assert.equal(fake.requests.length, 1);
    const body = fake.requests[0]!.body as { messages: Array<{ role: string; content: string }>; tools?: unknown[] };
    assert.match(body.messages[0]!.content, /You write git commit messages/);
    assert.match(body.messages[0]!.content, /at most 72 characters/);
    assert.equal(lastUserText(fake.requests[0]!), `Draft in the commit box:\nfix pi\n\nDiff:\n${DIFF}`);
    assert.equal(body.tools, undefined, 'no tools: the call only writes text');
  });

  it('a provider failure is thrown for the host to report', async () => {
    fake.enqueue({ failure: { kind: 'status', status: 401 } });
    await assert.rejects(writeCommitMessage(model(), { diff: DIFF }, new AbortController().signal));
  });

  it('a long diff is cut at a line and says how much was left out', () => {
    const long = 'line\n'.repeat(100);
    const cut = diffForModel(long, 52);
    assert.ok(cut.startsWith('line\n'.repeat(10).trimEnd()), cut);
    assert.match(cut, /\n\[… the diff goes on for 451 more characters\]$/);
    assert.equal(diffForModel(DIFF), DIFF);
  });

  it('quotes and fences around the answer are dropped; inner quotes stay', () => {
    assert.equal(cleanCommitMessage('"Add a test"'), 'Add a test');
    assert.equal(cleanCommitMessage('Fix "quoted" name'), 'Fix "quoted" name');
    assert.equal(cleanCommitMessage('  Add parser  \n'), 'Add parser');
  });
});
