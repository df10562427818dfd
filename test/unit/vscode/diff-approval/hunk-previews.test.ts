import * as assert from 'node:assert/strict';
import { applyHunks, changeHunks } from '../../../../src/core/tools/edit/change-hunks';
import { hunkPreviews } from '../../../../src/vscode/diff-approval/hunk-previews';
import { ApprovalRequestSchema, MAX_HUNK_PREVIEWS } from '../../../../src/shared/protocol';

/** What the chat card shows of each hunk it lets the user accept or reject. */
describe('inline diff approval: the hunks as the chat card lists them', () => {
  const before = ['import x;', '', 'const a = 1;', 'const b = 2;', 'const c = 3;', '', 'export { a };', ''].join('\n');
  const after = ['import x;', '', 'const a = 10;', 'const b = 2;', 'const c = 3;', '', 'export { a };', 'export { b };', ''].join('\n');

  it('shows each hunk of changeHunks with its where, its size and a little context that stops at the neighbouring hunk', () => {
    const hunks = changeHunks(before, after);
    const previews = hunkPreviews(before, hunks)!;
    assert.deepEqual(
      previews.map((p) => ({ index: p.index, where: p.where, added: p.added, removed: p.removed })),
      [
        { index: 0, where: 'line 3', added: 1, removed: 1 },
        { index: 1, where: 'after line 7', added: 1, removed: 0 },
      ],
    );
    assert.equal(previews[0]!.lines, [' import x;', ' ', '-const a = 1;', '+const a = 10;', ' const b = 2;', ' const c = 3;'].join('\n'));
    assert.equal(previews[1]!.lines, [' ', ' export { a };', '+export { b };'].join('\n'));
    // Accepting exactly the hunk the card calls "change 2" gives that change and nothing else.
    assert.equal(applyHunks(before, hunks, new Set([previews[1]!.index])), before.replace('export { a };\n', 'export { a };\nexport { b };\n'));
    assert.equal(ApprovalRequestSchema.safeParse({ kind: 'tool', toolName: 'edit_file', title: 't', args: '{}', hunks: 2, hunkPreviews: previews }).success, true);
  });

  it('a long hunk shows its start and says how much more there is', () => {
    const body = Array.from({ length: 250 }, (_, i) => `line ${i}`).join('\n');
    const [top, end] = hunkPreviews('a\nb\nc\nd\n', changeHunks('a\nb\nc\nd\n', `${body}\na\nb\nc\nD\n`))!;
    assert.equal(top!.where, 'at the start');
    assert.equal(top!.added, 250);
    const lines = top!.lines.split('\n');
    assert.equal(lines.length, 201);
    assert.equal(lines[0], '+line 0');
    assert.equal(lines.at(-1), '⋯ 52 more lines (Open diff shows them)');
    assert.equal(end!.lines, ' b\n c\n-d\n+D');
  });

  it('lists no hunks for a single hunk (Accept All / Reject All decide it) or too many for a card', () => {
    assert.equal(hunkPreviews('a\n', changeHunks('a\n', 'b\n')), undefined);
    const many = Array.from({ length: MAX_HUNK_PREVIEWS + 1 }, (_, i) => `${i}\nsame\n`).join('');
    const changed = many.replace(/^(\d+)$/gm, 'x$1');
    assert.equal(changeHunks(many, changed).length, MAX_HUNK_PREVIEWS + 1);
    assert.equal(hunkPreviews(many, changeHunks(many, changed)), undefined);
    assert.equal(hunkPreviews(many, changeHunks(many, changed).slice(0, MAX_HUNK_PREVIEWS))?.length, MAX_HUNK_PREVIEWS);
  });
});
