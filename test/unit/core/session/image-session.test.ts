import * as assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '../../../../src/core/messages';
import { SessionStore } from '../../../../src/core/session/session-store';
import { pngAttachment } from '../../../helpers/png';

describe('sessions with images', () => {
  let home: string;
  let project: string;
  let problems: string[];
  let store: SessionStore;

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'opendev-sessions-'));
    project = mkdtempSync(join(tmpdir(), 'opendev-project-'));
    problems = [];
    store = new SessionStore({ home, onProblem: (p) => problems.push(p) });
  });
  afterEach(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  });

  it('saves a message with an image and loads it back unchanged', async () => {
    const conversation: Message[] = [
      { role: 'user', content: 'Why does this screen look wrong?', images: [pngAttachment('screen.png')] },
      { role: 'assistant', content: 'The header overlaps the list.', toolCalls: [] },
    ];
    const record = await store.create(project);
    await store.append(record, conversation);
    const loaded = await store.load(record.meta.id, project);
    assert.deepEqual(loaded?.messages, conversation);
    assert.deepEqual(problems, []);
  });

  it('drops an image line whose data is not what it claims, reports it, and keeps the rest', async () => {
    const record = await store.create(project);
    await store.append(record, [{ role: 'user', content: 'first', images: [pngAttachment()] }]);
    const file = join(store.projectDir(project), `${record.meta.id}.jsonl`);
    const forged = { role: 'user', content: 'forged', images: [{ mediaType: 'image/png', data: Buffer.from('<script>').toString('base64') }], timestamp: new Date().toISOString() };
    appendFileSync(file, `${JSON.stringify(forged)}\n`);
    const loaded = await store.load(record.meta.id, project);
    assert.deepEqual(loaded?.messages.map((m) => m.content), ['first']);
    assert.ok(problems.length > 0, `the damaged line is reported: ${readFileSync(file, 'utf8').length} bytes`);
  });
});
