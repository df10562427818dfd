import * as assert from 'node:assert/strict';
import { applyHunks, changeHunks } from '../../../../../src/core/tools/edit/change-hunks';

/** The hunks a user accepts or rejects one by one: every subset must give a coherent file. */
describe('change hunks', () => {
  const subsets = (n: number) => Array.from({ length: 1 << n }, (_, mask) => new Set([...Array(n).keys()].filter((i) => mask & (1 << i))));

  it('splits changes separated by unchanged lines into hunks with their line positions', () => {
    const before = 'a\nb\nc\nd\ne\n';
    const after = 'a\nB\nc\nd\nx\ny\ne\n';
    const hunks = changeHunks(before, after);
    assert.deepEqual(
      hunks.map((h) => [h.index, h.beforeStart, h.afterStart, h.removed, h.added]),
      [
        [0, 1, 1, ['b\n'], ['B\n']],
        [1, 4, 4, [], ['x\n', 'y\n']],
      ],
    );
    assert.equal(applyHunks(before, hunks, new Set([0])), 'a\nB\nc\nd\ne\n');
    assert.equal(applyHunks(before, hunks, new Set([1])), 'a\nb\nc\nd\nx\ny\ne\n');
  });

  it('every hunk gives `after` exactly and none gives `before`, whatever the final newline, deletions and insertions at the ends', () => {
    const cases: Array<[string, string]> = [
      ['x\ny', 'X\ny\nz'],
      ['one\ntwo\nthree\n', 'zero\none\nthree'],
      ['', 'new file\nwith two lines\n'],
      ['only\n', ''],
      ['a\r\nb\n', 'a\r\nB\n'],
      ['keep\n'.repeat(20) + 'end', 'start\n' + 'keep\n'.repeat(10) + 'middle\n' + 'keep\n'.repeat(10) + 'end\n'],
    ];
    for (const [before, after] of cases) {
      const hunks = changeHunks(before, after);
      assert.equal(applyHunks(before, hunks, new Set(hunks.map((h) => h.index))), after, JSON.stringify([before, after]));
      assert.equal(applyHunks(before, hunks, new Set()), before);
      // Any subset applies cleanly, and applying a hunk changes exactly its own lines.
      for (const accepted of subsets(hunks.length)) {
        const text = applyHunks(before, hunks, accepted);
        const again = changeHunks(before, text);
        assert.equal(again.length, accepted.size, `${JSON.stringify([before, after])} ${[...accepted]}`);
      }
    }
  });

  it('is deterministic and empty for equal texts', () => {
    assert.deepEqual(changeHunks('same\n', 'same\n'), []);
    assert.deepEqual(changeHunks('a\nb\n', 'a\nc\n'), changeHunks('a\nb\n', 'a\nc\n'));
  });
});
