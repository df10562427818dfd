// Sessions through the real CLI: titles (by default the first prompt when it reads as one, else the
// compact model in the background; OPENDEV_SESSION_TITLES=0 never asks the model, 1 always does),
// and what --resume and /sessions show.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SessionStore } from '../../../src/core/session/session-store';
import { FakeProvider, type RecordedRequest } from '../../fixtures/fake-provider';
import { newHome, opendev, workspace } from './cli-harness';

const isTitleCall = (req: RecordedRequest) => JSON.stringify(req.body?.messages?.[0] ?? '').includes('You name conversations');

describe('opendev CLI sessions', () => {
  const fake = new FakeProvider();
  let home: string;
  const env = (titles: string | undefined) => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_HOME: home, OPENDEV_SESSION_TITLES: titles });

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    home = newHome();
    fake.setResponder((req) => (isTitleCall(req) ? { text: 'Explain what math.ts exports' } : { text: 'It exports PI, add and subtract.' }));
  });

  it('by default a short first prompt is the title, with no model call; OPENDEV_SESSION_TITLES=1 asks the model anyway', async () => {
    const plain = await opendev(['-p', 'what does math.ts export?'], env(undefined));
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(fake.requests.length, 1, 'one request: the answer');
    assert.deepEqual((await new SessionStore({ home }).list(workspace)).map((m) => m.title), ['what does math.ts export?']);

    const titled = await opendev(['-p', 'what does math.ts export?'], env('1'));
    assert.equal(titled.code, 0, titled.stderr);
    assert.equal(fake.requests.filter(isTitleCall).length, 1);
    assert.ok((await new SessionStore({ home }).list(workspace)).some((m) => m.title === 'Explain what math.ts exports'));
  });

  it('by default a long first prompt is titled by the compact model after the first exchange; /sessions and --resume show the title', async () => {
    const first = await opendev(['-p', 'what does math.ts export, and which of its functions have tests?', '--output-format', 'json'], env(undefined));
    assert.equal(first.code, 0, first.stderr);
    assert.equal(JSON.parse(first.stdout).result, 'It exports PI, add and subtract.', 'the answer is not held up by the title');
    const id = JSON.parse(first.stdout).sessionId as string;
    assert.equal(fake.requests.filter(isTitleCall).length, 1);

    const listed = await opendev(['-p', '/sessions'], env(undefined));
    assert.match(listed.stdout, new RegExp(`${id}\\s+Explain what math\\.ts exports`));
    const unknown = await opendev(['--resume', 'zzzzzzzz', '-p', 'hi'], env(undefined));
    assert.match(unknown.stderr, new RegExp(`${id} .*Explain what math\\.ts exports`));
    assert.equal(fake.requests.filter(isTitleCall).length, 1, 'commands make no model call');
  });

  it('OPENDEV_SESSION_TITLES=0 keeps the first-line title and makes no extra call', async () => {
    const r = await opendev(['-p', 'what does math.ts export?'], env('0'));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fake.requests.length, 1);
    const [meta] = await new SessionStore({ home }).list(workspace);
    assert.equal(meta?.title, 'what does math.ts export?');
  });

  it('a damaged session index is rebuilt and said on stderr; --continue still finds the latest session', async () => {
    const first = await opendev(['-p', 'remember 42', '--output-format', 'json'], env('0'));
    const id = JSON.parse(first.stdout).sessionId as string;
    const dir = new SessionStore({ home }).projectDir(workspace);
    writeFileSync(join(dir, 'sessions-index.json'), '{ torn');
    const again = await opendev(['--continue', '-p', 'what number?', '--output-format', 'json'], env('0'));
    assert.equal(again.code, 0, again.stderr);
    assert.equal(JSON.parse(again.stdout).sessionId, id);
    assert.match(again.stderr, /opendev: sessions: .*sessions-index\.json: corrupt \(not valid JSON\); rebuilt from 1 session file\(s\)/);
    assert.match(JSON.stringify(fake.requests.at(-1)!.body.messages), /remember 42/);
    assert.ok(readdirSync(dir).every((n) => !n.endsWith('.lock') && !n.endsWith('.tmp')), 'no lock or temp file is left behind');
    assert.equal(JSON.parse(readFileSync(join(dir, 'sessions-index.json'), 'utf8')).sessions.length, 1);
  });
});
