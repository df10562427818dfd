import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { emptyPlaybook } from '../../../../../src/core/memory/playbook/bullet';
import { applyDelta } from '../../../../../src/core/memory/playbook/delta';
import { PLAYBOOK_FILE, playbookPath, PlaybookStore } from '../../../../../src/core/memory/playbook/playbook-store';
import { SessionStore } from '../../../../../src/core/session/session-store';
import { tempHome } from '../memory-fixtures';

const NOW = new Date('2026-02-01T00:00:00Z');

describe('PlaybookStore (playbook.json per project)', () => {
  let home: ReturnType<typeof tempHome>;
  let path: string;
  beforeEach(() => {
    home = tempHome();
    path = playbookPath('/work/some-project', home.home);
  });
  afterEach(() => home.cleanup());

  it("lives in the project's session folder", () => {
    assert.equal(path, join(new SessionStore({ home: home.home }).projectDir('/work/some-project'), PLAYBOOK_FILE));
  });

  it('round trip: what one store writes another reads, as pretty JSON, without temp files left', async () => {
    assert.deepEqual(await new PlaybookStore(path).read(), emptyPlaybook(), 'no file: an empty playbook');
    const written = await new PlaybookStore(path).update((p) => applyDelta(p, [{ type: 'add', section: 'testing', content: 'Run npm test.' }], NOW).playbook);
    assert.deepEqual(await new PlaybookStore(path).read(), written);
    assert.match(readFileSync(path, 'utf8'), /\n {2}"bullets": \[\n/);
    assert.deepEqual(readdirSync(dirname(path)), [PLAYBOOK_FILE]);
  });

  it('a corrupt file is kept aside as .corrupt-<time>, with a warning, and a fresh playbook starts', async () => {
    const store = new PlaybookStore(path, { now: () => NOW });
    await store.ensureExists();
    writeFileSync(path, '{ "bullets": [ oops');
    const warnings: string[] = [];
    const fresh = new PlaybookStore(path, { onWarning: (w) => warnings.push(w), now: () => NOW });
    assert.deepEqual(await fresh.read(), emptyPlaybook());
    const aside = join(dirname(path), `${PLAYBOOK_FILE}.corrupt-2026-02-01T00-00-00-000Z`);
    assert.equal(readFileSync(aside, 'utf8'), '{ "bullets": [ oops');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /not valid.*corrupt-/);
    await fresh.update((p) => applyDelta(p, [{ type: 'add', section: 's', content: 'Lesson.' }], NOW).playbook);
    assert.equal((await new PlaybookStore(path).read()).bullets.length, 1);
  });

  it('a file of the wrong shape is corrupt too; a hand-written bullet needs only id and content', async () => {
    const warnings: string[] = [];
    await new PlaybookStore(path).ensureExists();
    writeFileSync(path, JSON.stringify({ bullets: [{ id: 'pb-1' }] }));
    assert.deepEqual(await new PlaybookStore(path, { onWarning: (w) => warnings.push(w) }).read(), emptyPlaybook());
    assert.match(warnings[0]!, /content/);

    writeFileSync(path, JSON.stringify({ bullets: [{ id: 'mine', content: 'Never touch generated/.' }] }));
    const [b] = (await new PlaybookStore(path).read()).bullets;
    assert.deepEqual([b!.id, b!.section, b!.content, b!.helpful, b!.harmful, b!.neutral], ['mine', 'general', 'Never touch generated/.', 0, 0, 0]);
  });

  it("picks up the user's edits to the file (a changed modification time)", async () => {
    const store = new PlaybookStore(path);
    await store.update((p) => applyDelta(p, [{ type: 'add', section: 's', content: 'Old lesson.' }], NOW).playbook);
    const book = JSON.parse(readFileSync(path, 'utf8'));
    book.bullets[0].content = 'Edited by the user.';
    writeFileSync(path, JSON.stringify(book, null, 2));
    const later = new Date(Date.now() + 5_000);
    utimesSync(path, later, later);
    assert.equal((await store.read()).bullets[0]!.content, 'Edited by the user.');
    // An update reads the edited file first, so the user's change survives the agent's next write.
    await store.update((p) => applyDelta(p, [{ type: 'tag', id: 'pb-1', tag: 'helpful' }], NOW).playbook);
    const saved = JSON.parse(readFileSync(path, 'utf8'));
    assert.deepEqual([saved.bullets[0].content, saved.bullets[0].helpful], ['Edited by the user.', 1]);
  });

  it('ensureExists creates an empty playbook only when there is none', async () => {
    const store = new PlaybookStore(path);
    await store.ensureExists();
    assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), emptyPlaybook());
    await store.update((p) => applyDelta(p, [{ type: 'add', section: 's', content: 'Keep me.' }], NOW).playbook);
    await new PlaybookStore(path).ensureExists();
    assert.equal(JSON.parse(readFileSync(path, 'utf8')).bullets.length, 1);
    assert.ok(existsSync(path));
  });
});
