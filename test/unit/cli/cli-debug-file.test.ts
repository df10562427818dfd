// `opendev -p … --debug-file <path>` through the real dist/cli.js against the fake provider: the file
// gets the request line (model, tokens, latency) with time and level, and never the key.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeProvider } from '../../fixtures/fake-provider';
import { newHome, opendev } from './cli-harness';

const KEY = 'sk-debugfile-0123456789abcdefXYZ';

describe('opendev --debug-file', function () {
  this.timeout(60_000);
  const fake = new FakeProvider();
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => fake.reset());

  it('writes the provider request line and the retry with time and level, without the key, to a private file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'opendev-debug-')), 'debug.log');
    fake.enqueue({ failure: { kind: 'status', status: 503 } }, { text: 'Hello.', usage: { promptTokens: 200, outputTokens: 3 } });
    const r = await opendev(['-p', 'say hello', '--debug-file', file], { OPENDEV_HOME: newHome(), OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_MODEL: 'fake-model' });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'Hello.');
    const text = readFileSync(file, 'utf8');
    const stamp = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z';
    assert.match(text, new RegExp(`^${stamp} \\[warn\\] provider retry provider=openai model=fake-model purpose=action .*attempt=2 .*reason="a server error \\(503\\)"$`, 'm'));
    assert.match(text, new RegExp(`^${stamp} \\[info\\] provider request provider=openai model=fake-model purpose=action .*inputTokens=200 .*outputTokens=3 latencyMs=\\d+ .*attempts=2 status=ok$`, 'm'));
    assert.match(text, /\[info\] trust: folder configuration .*projectTrusted=false asked=false/);
    assert.ok(!text.includes(KEY), 'the key never reaches the file');
    assert.ok(!r.stderr.includes(KEY) && !r.stdout.includes(KEY));
    // The request did carry the key: the file is clean because the log masks it.
    assert.equal(fake.requests[0]!.headers.authorization, `Bearer ${KEY}`);
    assert.equal(statSync(file).mode & 0o077, 0, 'only the user can read it');
  });

  it('says when the file cannot be written, and OPENDEV_LOG_LEVEL must be a level', async () => {
    const bad = await opendev(['-p', '/help', '--debug-file', '/nonexistent-dir/opendev.log'], { OPENDEV_HOME: newHome() });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--debug-file \/nonexistent-dir\/opendev\.log cannot be written/);
    const file = join(mkdtempSync(join(tmpdir(), 'opendev-debug-')), 'debug.log');
    const level = await opendev(['-p', '/help', '--debug-file', file], { OPENDEV_HOME: newHome(), OPENDEV_LOG_LEVEL: 'loud' });
    assert.equal(level.code, 2);
    assert.match(level.stderr, /OPENDEV_LOG_LEVEL must be one of trace, debug, info, warn, error \(got "loud"\)/);
    assert.equal(existsSync(file), false);
  });
});
