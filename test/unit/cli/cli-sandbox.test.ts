// The real CLI with the sandbox on (OPENDEV_SANDBOX=1) against the fake provider: at semi-auto a
// command runs unasked inside it, writes in the workspace and not outside, and the model reads what
// was blocked; `sandbox: false` is refused in -p unless --allow-unsandboxed; where bubblewrap cannot
// be found the run says so once, with the fix, and falls back to the text rules.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allToolResults, FakeProvider } from '../../fixtures/fake-provider';
import { until } from '../../helpers/wait';
import { newHome, opendev } from './cli-harness';

describe('opendev -p with the command sandbox (real bubblewrap)', function () {
  this.timeout(120_000);
  const fake = new FakeProvider();
  let root: string;
  let ws: string;
  let outside: string;
  const env = (extra: Record<string, string> = {}) => ({
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: fake.openaiBaseUrl,
    OPENDEV_HOME: newHome(),
    HOME: join(root, 'home'),
    OPENDEV_SANDBOX: '1',
    ...extra,
  });
  /** What the model read back for each call, from every request (a failed call earns a recovery turn). */
  const readBack = () => new Map(fake.requests.flatMap((q) => allToolResults(q)).map((r) => [r.toolCallId, r.content]));
  const script = (args: Record<string, unknown>) =>
    fake.enqueue({ toolCalls: [{ id: 'cmd', name: 'run_command', arguments: args }] }, ...[1, 2].map(() => ({ toolCalls: [{ name: 'task_complete', arguments: { summary: 'done', status: 'success' } }] })));

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    root = mkdtempSync(join(tmpdir(), 'opendev-cli-sandbox-'));
    ws = join(root, 'ws');
    mkdirSync(ws);
    mkdirSync(join(root, 'home'));
    outside = join(root, 'outside.txt');
  });

  it('semi-auto runs the command in the sandbox without asking: the workspace write lands, the outside one is blocked and named', async () => {
    script({ command: `echo ok > inside.txt && echo x > ${outside}` });
    const r = await opendev(['-p', 'write things', '-C', ws, '--approval', 'semi-auto'], env());
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /approval denied|unsandboxed/, r.stderr);
    assert.equal(readFileSync(join(ws, 'inside.txt'), 'utf8'), 'ok\n');
    assert.ok(!existsSync(outside));
    assert.ok(readBack().get('cmd'), r.stderr + r.stdout);
    assert.match(readBack().get('cmd')!, new RegExp(`The sandbox blocked:\\n- writing ${outside.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
  });

  it('sandbox: false is refused in -p even at auto, unless --allow-unsandboxed', async () => {
    script({ command: `echo x > ${outside}`, sandbox: false });
    const refused = await opendev(['-p', 'write outside', '-C', ws, '--approval', 'auto'], env());
    assert.match(refused.stderr, /--allow-unsandboxed/);
    assert.ok(!existsSync(outside));
    assert.match(readBack().get('cmd')!, /outside the sandbox/);
    fake.reset();
    script({ command: `echo x > ${outside}`, sandbox: false });
    const allowed = await opendev(['-p', 'write outside', '-C', ws, '--approval', 'auto', '--allow-unsandboxed', '--allow-outside-workspace'], env());
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(readFileSync(outside, 'utf8'), 'x\n');
  });

  it('a server runs outside the sandbox, so -p refuses it even at auto, unless --allow-unsandboxed', async () => {
    // What `node server.js` starts is the project's code: outside the sandbox it can write anywhere.
    writeFileSync(join(ws, 'server.js'), `require('fs').writeFileSync(${JSON.stringify(outside)}, 'x');\n`);
    script({ command: 'node server.js' });
    const refused = await opendev(['-p', 'start the server', '-C', ws, '--approval', 'auto'], env());
    assert.match(refused.stderr, /starts a server \(node …server\)[^]*--allow-unsandboxed/, refused.stderr);
    assert.ok(!existsSync(outside));
    fake.reset();
    script({ command: 'node server.js' });
    const allowed = await opendev(['-p', 'start the server', '-C', ws, '--approval', 'auto', '--allow-unsandboxed'], env());
    assert.equal(allowed.code, 0, allowed.stderr);
    await until(() => existsSync(outside), 'the server, outside the sandbox, writing its file');
  });

  it('without bubblewrap: one warning with the fix, and the text rules judge as before (semi-auto asks, so -p refuses)', async () => {
    script({ command: 'echo ok > inside.txt' });
    const r = await opendev(['-p', 'write things', '-C', ws, '--approval', 'semi-auto'], env({ OPENDEV_SANDBOX_BWRAP: join(root, 'no-bwrap') }));
    assert.equal(r.stderr.match(/Commands run unsandboxed/g)?.length, 1, r.stderr);
    assert.match(r.stderr, /apt-get install bubblewrap socat/);
    assert.match(r.stderr, /approval denied/);
    assert.ok(!existsSync(join(ws, 'inside.txt')));
  });
});
