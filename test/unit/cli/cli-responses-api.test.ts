// A whole task through OpenAI's Responses API: the real dist/cli.js, `-p` with a reasoning model,
// against the fake provider speaking POST /v1/responses. The tool call's result goes back as a
// function_call_output, the model's reasoning goes back encrypted on the next request and again
// after the session is resumed from disk, and every request carries the session's prompt-cache key.
import * as assert from 'node:assert/strict';
import { fakeEncryptedReasoning, FakeProvider } from '../../fixtures/fake-provider';
import { newHome, opendev } from './cli-harness';

describe('opendev -p through the OpenAI Responses API', function () {
  this.timeout(120_000);
  const fake = new FakeProvider();
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => fake.reset());

  const env = (home: string, extra: Record<string, string> = {}) => ({ OPENDEV_HOME: home, OPENAI_API_KEY: 'sk-responses-test', OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_MODEL: 'o3', ...extra });

  it('runs a task with a tool call, carries the reasoning across steps and across a resume, with one cache key', async () => {
    const home = newHome();
    fake.enqueue(
      { thinking: 'I need to read math.ts.', toolCalls: [{ id: 'call_math', name: 'read_file', arguments: { file_path: 'math.ts' } }] },
      { text: 'math.ts exports PI and add.' },
    );
    const first = await opendev(['-p', 'What does math.ts export?', '--output-format', 'json'], env(home));
    assert.equal(first.code, 0, first.stderr);
    const out = JSON.parse(first.stdout);
    assert.equal(out.result, 'math.ts exports PI and add.');
    const sessionId: string = out.sessionId;

    assert.deepEqual(fake.requests.map((r) => r.path), ['/v1/responses', '/v1/responses']);
    const [ask, answer] = fake.requests as [any, any];
    assert.equal(ask.body.store, false);
    assert.ok(ask.body.tools.some((t: any) => t.type === 'function' && t.name === 'read_file'), 'the tools are function tools');
    assert.match(ask.body.instructions, /\S/, 'the system prompt travels as instructions');

    const input: any[] = answer.body.input;
    const reasoning = input.findIndex((i) => i.type === 'reasoning');
    const call = input.findIndex((i) => i.type === 'function_call');
    const output = input.findIndex((i) => i.type === 'function_call_output');
    assert.ok(reasoning >= 0 && reasoning < call && call < output, `reasoning, call, result in order: ${JSON.stringify(input.map((i) => i.type ?? i.role))}`);
    assert.equal(input[reasoning].encrypted_content, fakeEncryptedReasoning('I need to read math.ts.'));
    assert.deepEqual(input[call], { type: 'function_call', call_id: 'call_math', name: 'read_file', arguments: '{"file_path":"math.ts"}' });
    assert.equal(input[output].call_id, 'call_math');
    assert.match(input[output].output, /export const PI = 3\.14159/);

    assert.deepEqual(fake.requests.map((r) => r.body.prompt_cache_key), [`opendev-${sessionId}`, `opendev-${sessionId}`]);

    // Resumed from the files on disk: the reasoning item is still in the conversation, the key the same.
    fake.reset();
    fake.enqueue({ text: 'PI is 3.14159.' });
    const second = await opendev(['--resume', sessionId, '-p', 'And the value of PI?', '--output-format', 'json'], env(home));
    assert.equal(second.code, 0, second.stderr);
    assert.equal(JSON.parse(second.stdout).result, 'PI is 3.14159.');
    const resumed: any[] = fake.requests[0]!.body.input;
    assert.ok(resumed.some((i) => i.type === 'reasoning' && i.encrypted_content === fakeEncryptedReasoning('I need to read math.ts.')), 'the saved reasoning goes out again');
    assert.ok(resumed.some((i) => i.type === 'function_call_output' && i.call_id === 'call_math'));
    assert.equal(fake.requests[0]!.body.prompt_cache_key, `opendev-${sessionId}`);
  });

  it('--openai-api chat and OPENDEV_OPENAI_API=chat keep a reasoning model on Chat Completions; responses moves gpt-4o over', async () => {
    fake.enqueue({ text: 'one' }, { text: 'two' }, { text: 'three' });
    const byFlag = await opendev(['-p', 'hi', '--openai-api', 'chat'], env(newHome()));
    assert.equal(byFlag.code, 0, byFlag.stderr);
    const byEnv = await opendev(['-p', 'hi'], env(newHome(), { OPENDEV_OPENAI_API: 'chat' }));
    assert.equal(byEnv.code, 0, byEnv.stderr);
    const moved = await opendev(['-p', 'hi', '--openai-api', 'responses', '--model', 'gpt-4o'], env(newHome()));
    assert.equal(moved.code, 0, moved.stderr);
    assert.deepEqual(fake.requests.map((r) => r.path), ['/v1/chat/completions', '/v1/chat/completions', '/v1/responses']);
    assert.deepEqual([byFlag.stdout.trim(), byEnv.stdout.trim(), moved.stdout.trim()], ['one', 'two', 'three']);
  });

  it('a bad value is a usage error naming the allowed ones', async () => {
    const flag = await opendev(['-p', 'hi', '--openai-api', 'soap'], env(newHome()));
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /--openai-api must be one of auto, chat, responses/);
    const variable = await opendev(['-p', 'hi'], env(newHome(), { OPENDEV_OPENAI_API: 'soap' }));
    assert.equal(variable.code, 2);
    assert.match(variable.stderr, /OPENDEV_OPENAI_API="soap" is not one of auto, chat, responses/);
    assert.equal(fake.requests.length, 0);
  });
});
