import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { FakeProvider } from '../../fixtures/fake-provider';

const repo = join(__dirname, '../../../..');
const cli = join(repo, 'dist/cli.js');
const workspace = join(repo, 'test/fixtures/workspace');

function opendev(args: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const clean = { ...process.env };
  for (const key of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'OPENDEV_PROVIDER', 'OPENDEV_MODEL']) delete clean[key];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { env: { ...clean, ...env }, cwd: workspace });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('opendev CLI', () => {
  const fake = new FakeProvider();
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => fake.reset());

  it('opendev -p answers through the OpenAI SDK and exits 0', async () => {
    fake.enqueue({ toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }] }, { text: 'It exports PI, add and subtract.' });
    const r = await opendev(['-p', 'what does math.ts export?'], { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseUrl });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'It exports PI, add and subtract.\n');
    assert.equal(fake.requests.length, 2);
    assert.equal(fake.requests[0]!.headers.authorization, 'Bearer test-key');
  });

  it('works with Anthropic, --model and --working-dir, and prints JSON on request', async () => {
    fake.enqueue({ text: 'Done.' });
    const r = await opendev(['-p', 'hi', '--provider', 'anthropic', '-m', 'claude-test', '-C', workspace, '--output-format', 'json'], {
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.anthropicBaseUrl,
    });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.status, 'completed');
    assert.equal(out.result, 'Done.');
    assert.equal(fake.requests[0]!.api, 'anthropic');
    assert.equal(fake.requests[0]!.body.model, 'claude-test');
    assert.match(fake.requests[0]!.body.system[0].text, new RegExp(workspace.replace(/[/.]/g, '\\$&')));
  });

  it('without a key names the variable to set, with no stack trace', async () => {
    const r = await opendev(['-p', 'hi'], {});
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /no API key for OpenAI\. Set OPENAI_API_KEY/);
    assert.doesNotMatch(r.stderr, /at .*\.js:\d+/);
  });

  it('exits 1 with a clear message when the provider keeps failing', async () => {
    fake.setResponder(() => ({ failure: { kind: 'status', status: 503 } }));
    const r = await opendev(['-p', 'hi'], { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: fake.openaiBaseUrl });
    fake.setResponder(undefined);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /OpenAI failed \(503\)/);
    assert.doesNotMatch(r.stderr, /at .*\.js:\d+/);
  });

  it('exits 1 when the provider is unreachable, naming the URL', async () => {
    const r = await opendev(['-p', 'hi'], { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /Cannot reach OpenAI at http:\/\/127\.0\.0\.1:9\/v1/);
  });

  it('rejects bad usage with exit 2 and a pointer to --help', async () => {
    const bad = await opendev(['--provider', 'gemini', '-p', 'x'], {});
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--provider.*opendev --help/s);
    const help = await opendev(['--help'], {});
    assert.equal(help.code, 0);
    assert.match(help.stdout, /opendev -p "<prompt>"/);
    const version = await opendev(['--version'], {});
    assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
  });
});
