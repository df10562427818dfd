// The CLI's commands run in the user's $SHELL with the environment their profile sets up, read from
// $HOME; OPENDEV_SHELL_PROFILE=0 keeps the profile unread. Through the real dist/cli.js against the
// fake provider, with a fake home whose ~/.profile exports a marker.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeProvider, toolResults } from '../../fixtures/fake-provider';
import { fakeHome } from '../core/process/process-helpers';
import { newHome, opendev } from './cli-harness';

describe('opendev CLI: the shell profile', function () {
  this.timeout(60_000);
  const fake = new FakeProvider();
  let root: string;
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    root = mkdtempSync(join(tmpdir(), 'opendev-cli-profile-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** What `echo $OPENDEV_PROFILE_MARKER` printed in a -p run with `extra` in the environment. */
  async function markerSeen(extra: Record<string, string>): Promise<string> {
    fake.enqueue(
      { toolCalls: [{ id: 'call_marker', name: 'run_command', arguments: { command: 'echo "marker=[${OPENDEV_PROFILE_MARKER:-}]"' } }] },
      { toolCalls: [{ name: 'task_complete', arguments: { summary: 'Looked.', status: 'success' } }] },
    );
    const env = { OPENAI_API_KEY: 'sk-cli-profile-test-0000', OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_HOME: newHome(), HOME: fakeHome(root), SHELL: '/bin/bash', ...extra };
    const r = await opendev(['-p', 'was the profile read?', '--approval', 'auto'], env);
    assert.equal(r.code, 0, r.stderr);
    const out = toolResults(fake.requests.at(-1)!).find((t) => t.toolCallId === 'call_marker')?.content ?? '';
    return /marker=\[([^\]]*)\]/.exec(out)?.[1] ?? `(no marker line in: ${out})`;
  }

  it('reads ~/.profile by default; OPENDEV_SHELL_PROFILE=0 does not', async () => {
    assert.equal(await markerSeen({}), 'from-profile');
    fake.reset();
    rmSync(join(root, 'home'), { recursive: true, force: true });
    assert.equal(await markerSeen({ OPENDEV_SHELL_PROFILE: '0' }), '');
  });
});
