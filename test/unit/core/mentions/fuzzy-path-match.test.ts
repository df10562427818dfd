import * as assert from 'node:assert/strict';
import { foldersOf, fuzzyScore, rankPaths, type PathCandidate } from '../../../../src/core/mentions/fuzzy-path-match';

const files = (...paths: string[]): PathCandidate[] => paths.map((path) => ({ path, kind: 'file' }));

describe('fuzzy path matching for @ completion', () => {
  it('puts the file whose name starts with the query first', () => {
    const ranked = rankPaths('ma', files('src/format.ts', 'docs/manual.md', 'math.ts', 'src/main/app.ts'), 10).map((c) => c.path);
    assert.equal(ranked[0], 'math.ts');
    assert.ok(ranked.includes('docs/manual.md'));
  });

  it('matches characters in order across the path, and not out of order', () => {
    assert.notEqual(fuzzyScore('smt', 'src/math.ts'), undefined);
    assert.equal(fuzzyScore('tms', 'src/math.ts'), undefined);
    const ranked = rankPaths('srcma', files('src/math.ts', 'scripts/run.mjs', 'README.md'), 10).map((c) => c.path);
    assert.deepEqual(ranked, ['src/math.ts']);
  });

  it('caps the results and lists the folders of the files once each', () => {
    const many = files(...Array.from({ length: 50 }, (_, i) => `pkg/file${i}.ts`));
    assert.equal(rankPaths('file', many, 20).length, 20);
    assert.deepEqual(foldersOf(['a/b/c.ts', 'a/b/d.ts', 'a/e.ts', 'top.ts']).sort(), ['a', 'a/b']);
  });
});
