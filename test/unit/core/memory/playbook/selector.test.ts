import * as assert from 'node:assert/strict';
import type { Bullet } from '../../../../../src/core/memory/playbook/bullet';
import { cosine, LexicalEmbedder, lexicalVector } from '../../../../../src/core/memory/playbook/embedding';
import { effectiveness, recency, RECENCY_HALF_LIFE_DAYS, scoreBullet, selectBullets } from '../../../../../src/core/memory/playbook/selector';

const NOW = new Date('2026-03-01T12:00:00Z');
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString();

function bullet(id: string, content: string, extra: Partial<Bullet> = {}): Bullet {
  return { id, section: 'general', content, helpful: 0, harmful: 0, neutral: 0, createdAt: daysAgo(1), updatedAt: daysAgo(1), ...extra };
}

const select = (bullets: Bullet[], query: string, k = 8, floor = 0) => selectBullets(bullets, query, new LexicalEmbedder(), { k, floor, now: NOW });
const ids = (scored: Array<{ bullet: Bullet }>) => scored.map((s) => s.bullet.id);

describe('playbook selector (0.5 effectiveness + 0.3 recency + 0.2 similarity)', () => {
  it('effectiveness: a bullet found helpful outranks an untested one, which outranks a harmful one', async () => {
    const bullets = [bullet('harmful', 'Prefer yarn over npm', { harmful: 3 }), bullet('untested', 'Prefer pnpm over npm'), bullet('helpful', 'Prefer bun over npm', { helpful: 3 })];
    assert.deepEqual(ids(await select(bullets, 'unrelated question about colours')), ['helpful', 'untested', 'harmful']);
    assert.equal(effectiveness({ helpful: 0, harmful: 0, neutral: 0 }), 0.5);
    assert.ok(effectiveness({ helpful: 0, harmful: 0, neutral: 4 }) === 0.5);
    assert.ok(effectiveness({ helpful: 5, harmful: 0, neutral: 0 }) > 0.9);
  });

  it('recency: of two equal bullets the recently confirmed one ranks first; the score halves every half-life', async () => {
    const bullets = [bullet('old', 'Run the linter before committing', { updatedAt: daysAgo(60) }), bullet('new', 'Run the formatter before committing', { updatedAt: daysAgo(0) })];
    assert.deepEqual(ids(await select(bullets, 'anything else')), ['new', 'old']);
    assert.ok(Math.abs(recency({ updatedAt: daysAgo(RECENCY_HALF_LIFE_DAYS) }, NOW) - 0.5) < 1e-9);
    assert.equal(recency({ updatedAt: NOW.toISOString() }, NOW), 1);
  });

  it('similarity: with equal counters and age, the bullet about the query ranks first', async () => {
    const bullets = [bullet('docker', 'Build the docker image with make image'), bullet('tests', 'Run the unit tests with npm run test:unit')];
    assert.deepEqual(ids(await select(bullets, 'how do I run the unit tests?')), ['tests', 'docker']);
    assert.deepEqual(ids(await select(bullets, 'the docker image does not build')), ['docker', 'tests']);
  });

  it('combines the three terms with the weights 0.5, 0.3 and 0.2', () => {
    const b = bullet('x', 'anything', { helpful: 1, updatedAt: daysAgo(RECENCY_HALF_LIFE_DAYS) });
    const s = scoreBullet(b, 0.5, NOW);
    assert.ok(Math.abs(s.score - (0.5 * 0.75 + 0.3 * 0.5 + 0.2 * 0.5)) < 1e-9);
    // Similarity moves the ranking less than effectiveness: a perfect match does not beat a proven bullet.
    const proven = scoreBullet(bullet('p', 'a', { helpful: 9 }), 0, NOW);
    const matching = scoreBullet(bullet('m', 'b'), 1, NOW);
    assert.ok(proven.score > matching.score);
  });

  it('keeps at most k bullets at or above the floor', async () => {
    const bullets = Array.from({ length: 12 }, (_, i) => bullet(`b${i}`, `lesson number ${i}`));
    bullets.push(bullet('bad', 'A lesson that misled the agent', { harmful: 6, updatedAt: daysAgo(90) }));
    const aboveFloor = await selectBullets(bullets, 'lesson', new LexicalEmbedder(), { k: 20, floor: 0.35, now: NOW });
    assert.equal(aboveFloor.length, 12, 'the old, mostly harmful bullet is below the floor');
    assert.ok(!ids(aboveFloor).includes('bad'));
    const chosen = await selectBullets(bullets, 'lesson', new LexicalEmbedder(), { k: 8, floor: 0.35, now: NOW });
    assert.equal(chosen.length, 8);
    assert.deepEqual(await select([], 'anything'), []);
  });
});

describe('lexical embedding', () => {
  it('is L2-normalised and scores shared words above unrelated text', () => {
    const v = lexicalVector('Run npm test before committing');
    assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-9);
    assert.ok(Math.abs(cosine(v, lexicalVector('Run npm test before committing')) - 1) < 1e-9);
    const related = cosine(lexicalVector('how to run the npm test suite'), v);
    const unrelated = cosine(lexicalVector('the colour of the sidebar icon'), v);
    assert.ok(related > 0.3, `related ${related}`);
    assert.equal(unrelated, 0);
  });

  it('splits identifiers and ignores case', () => {
    assert.ok(cosine(lexicalVector('parseConfigFile fails'), lexicalVector('the config file parse step fails')) > 0.5);
    assert.equal(cosine(lexicalVector(''), lexicalVector('anything')), 0);
  });
});
