import * as assert from 'node:assert/strict';
import { changeHunks } from '../../../../src/core/tools/edit/change-hunks';
import { HunkVerdicts } from '../../../../src/vscode/diff-approval/hunk-verdicts';
import { RecentEdits } from '../../../../src/vscode/diff-approval/recent-edits';

/** The verdicts given in the editor's CodeLens, and the finished edits kept for "Show diff". */
describe('inline diff approval: verdicts and recent edits', () => {
  const before = '1\n2\n3\n4\n5\n';
  const after = 'one\n2\n3\n4\nfive\nsix\n';
  const proposal = { path: '/w/a.ts', before, after, hunks: changeHunks(before, after) };

  it('answers only once every hunk is decided: all accepted = allow, none = deny, some = partial', () => {
    const v = new HunkVerdicts(proposal);
    assert.equal(v.hunks.length, 2);
    assert.equal(v.set(0, 'accepted'), true);
    assert.equal(v.decision(), undefined, 'hunk 2 is still open');
    v.set(1, 'rejected');
    assert.deepEqual(v.decision(), { action: 'partial', acceptedHunks: [0] });
    v.set(1, undefined);
    assert.equal(v.decision(), undefined, 'undo reopens a hunk');
    v.setAll('accepted');
    assert.deepEqual(v.decision(), { action: 'allow' });
    v.setAll('rejected');
    assert.deepEqual(v.decision(), { action: 'deny' });
    assert.equal(v.set(2, 'accepted'), false);
    assert.equal(v.set(-1, 'accepted'), false);
  });

  it('keeps the latest edits within a count and a size budget; too large an edit is not kept', () => {
    const recent = new RecentEdits(3, 100);
    const ids = ['a', 'b', 'c', 'd'].map((x) => recent.add({ path: `/w/${x}`, before: x, after: `${x}${x}` })!);
    assert.equal(recent.size, 3);
    assert.equal(recent.get(ids[0]!), undefined, 'the oldest went first');
    assert.equal(recent.latest()?.path, '/w/d');
    assert.equal(recent.add({ path: '/w/big', before: 'x'.repeat(60), after: 'y'.repeat(60) }), undefined);
    recent.add({ path: '/w/e', before: 'x'.repeat(45), after: 'y'.repeat(45) });
    assert.ok(recent.keptChars <= 100);
    assert.equal(recent.latest()?.path, '/w/e');
  });
});
