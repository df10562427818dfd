import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createSlashCommands, type CommandAgent } from '../../../../src/core/commands/slash-commands';
import { applyDelta } from '../../../../src/core/memory/playbook/delta';
import { PLAYBOOK_FILE, PlaybookStore } from '../../../../src/core/memory/playbook/playbook-store';
import { SessionStore } from '../../../../src/core/session/session-store';

describe('/playbook', () => {
  const commands = createSlashCommands();
  const agent = {} as CommandAgent; // the command reads the project's file, not the agent
  let home: string;
  let sessions: SessionStore;
  let path: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'opendev-playbook-cmd-'));
    sessions = new SessionStore({ home });
    path = join(sessions.projectDir('/work/app'), PLAYBOOK_FILE);
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it("shows the playbook's path and every bullet with its counters, by section", async () => {
    await new PlaybookStore(path).update((p) =>
      applyDelta(p, [
        { type: 'add', section: 'testing', content: 'Run npm test before finishing.' },
        { type: 'add', section: 'build', content: 'Build with make.' },
        { type: 'tag', id: 'pb-1', tag: 'helpful' },
      ], new Date()).playbook,
    );
    const result = await commands.run('/playbook', { agent, front: 'cli', sessions, workingDir: '/work/app' });
    assert.equal(result.error, undefined);
    assert.equal(
      result.output,
      [
        `Playbook: ${path}`,
        'testing:',
        '  [pb-1] Run npm test before finishing.  (helpful 1, harmful 0, neutral 0)',
        'build:',
        '  [pb-2] Build with make.  (helpful 0, harmful 0, neutral 0)',
        'Edit the file to change, add or remove bullets; the agent picks up your edits at its next turn.',
      ].join('\n'),
    );
  });

  it('says where the playbook will be when it is still empty, and reports a damaged file', async () => {
    const empty = await commands.run('/playbook', { agent, front: 'vscode', sessions, workingDir: '/work/app' });
    assert.match(empty.output, new RegExp(`Playbook: ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\nNo bullets yet`));

    await new PlaybookStore(path).ensureExists();
    writeFileSync(path, 'not json');
    const damaged = await commands.run('/playbook', { agent, front: 'vscode', sessions, workingDir: '/work/app' });
    assert.match(damaged.output, /was not valid .* kept as .*corrupt-/);
    assert.ok(readdirSync(dirname(path)).some((f) => f.startsWith(`${PLAYBOOK_FILE}.corrupt-`)));
  });

  it('needs a project folder', async () => {
    const result = await commands.run('/playbook', { agent, front: 'cli' });
    assert.equal(result.error, 'unavailable');
  });
});
