import * as assert from 'node:assert/strict';
import { emptyPlaybook, type Playbook } from '../../../../../src/core/memory/playbook/bullet';
import { applyDelta, DeltaBatchSchema } from '../../../../../src/core/memory/playbook/delta';

const T0 = new Date('2026-01-01T00:00:00Z');
const T1 = new Date('2026-01-02T00:00:00Z');

function withTwo(): Playbook {
  return applyDelta(emptyPlaybook(), [
    { type: 'add', section: 'Testing', content: 'Run npm test before finishing.' },
    { type: 'add', section: 'build', content: 'Build with node esbuild.config.mjs.' },
  ], T0).playbook;
}

describe('playbook delta application', () => {
  it('add: new bullets get pb-<n> ids, a clean section name and zero counters', () => {
    const book = withTwo();
    assert.deepEqual(
      book.bullets.map((b) => [b.id, b.section, b.content, b.helpful, b.harmful, b.neutral, b.createdAt]),
      [
        ['pb-1', 'testing', 'Run npm test before finishing.', 0, 0, 0, T0.toISOString()],
        ['pb-2', 'build', 'Build with node esbuild.config.mjs.', 0, 0, 0, T0.toISOString()],
      ],
    );
    const next = applyDelta(book, [{ type: 'add', section: 'x', content: 'Another lesson.' }], T1).playbook;
    assert.equal(next.bullets.at(-1)!.id, 'pb-3');
  });

  it('update, tag and remove change the named bullet only; the input is not modified', () => {
    const book = withTwo();
    const { playbook, notes, changed } = applyDelta(book, [
      { type: 'update', id: 'pb-1', content: 'Run npm run test:unit before finishing.' },
      { type: 'tag', id: 'pb-1', tag: 'helpful' },
      { type: 'tag', id: 'pb-1', tag: 'helpful' },
      { type: 'tag', id: 'pb-1', tag: 'harmful' },
      { type: 'remove', id: 'pb-2' },
    ], T1);
    assert.equal(changed, true);
    assert.deepEqual(notes, []);
    assert.equal(playbook.bullets.length, 1);
    const b = playbook.bullets[0]!;
    assert.deepEqual([b.content, b.helpful, b.harmful, b.neutral, b.createdAt, b.updatedAt], ['Run npm run test:unit before finishing.', 2, 1, 0, T0.toISOString(), T1.toISOString()]);
    assert.equal(book.bullets.length, 2);
    assert.equal(book.bullets[0]!.helpful, 0);
    assert.equal(book.bullets[0]!.content, 'Run npm test before finishing.');
  });

  it('unknown ids are ignored with a note', () => {
    const book = withTwo();
    const outcome = applyDelta(book, [
      { type: 'update', id: 'pb-9', content: 'x' },
      { type: 'tag', id: 'nope', tag: 'neutral' },
      { type: 'remove', id: 'pb-7' },
    ], T1);
    assert.equal(outcome.changed, false);
    assert.deepEqual(outcome.playbook, book);
    assert.equal(outcome.notes.length, 3);
    assert.match(outcome.notes.join('\n'), /pb-9.*ignored/);
  });

  it('the same lesson is not added twice (case, spacing and final punctuation do not matter)', () => {
    const outcome = applyDelta(withTwo(), [
      { type: 'add', section: 'testing', content: '  run NPM test   before finishing ' },
      { type: 'add', section: 'new', content: 'Use the fake provider in tests.' },
      { type: 'add', section: 'new', content: 'Use the fake provider in tests.' },
    ], T1);
    assert.deepEqual(outcome.playbook.bullets.map((b) => b.id), ['pb-1', 'pb-2', 'pb-3']);
    assert.equal(outcome.notes.filter((n) => /not added again/.test(n)).length, 2);
  });

  it('content is trimmed and capped; empty content and a full playbook are refused', () => {
    const long = 'word '.repeat(200);
    const { playbook, notes } = applyDelta(emptyPlaybook(), [{ type: 'add', section: 's', content: long }, { type: 'add', section: 's', content: '   ' }], T0, { maxContentChars: 50, maxBullets: 1 });
    assert.equal(playbook.bullets.length, 1);
    assert.equal(playbook.bullets[0]!.content.length, 50);
    assert.match(notes.join('\n'), /cut to 50/);
    assert.match(notes.join('\n'), /empty content/);
    const full = applyDelta(playbook, [{ type: 'add', section: 's', content: 'another' }], T0, { maxContentChars: 50, maxBullets: 1 });
    assert.equal(full.playbook.bullets.length, 1);
    assert.match(full.notes.join('\n'), /full/);
  });

  it('the DeltaBatch schema accepts the four operations and rejects others', () => {
    const ok = DeltaBatchSchema.safeParse({ operations: [{ type: 'add', section: 's', content: 'c' }, { type: 'update', id: 'pb-1', content: 'c' }, { type: 'tag', id: 'pb-1', tag: 'helpful' }, { type: 'remove', id: 'pb-1' }] });
    assert.equal(ok.success, true);
    assert.equal(DeltaBatchSchema.safeParse({ operations: [{ type: 'tag', id: 'pb-1', tag: 'great' }] }).success, false);
    assert.equal(DeltaBatchSchema.safeParse({ operations: [{ type: 'rename', id: 'pb-1' }] }).success, false);
  });
});
