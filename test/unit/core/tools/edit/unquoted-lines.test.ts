import * as assert from 'node:assert/strict';
import { planEdit } from '../../../../../src/core/tools/edit/apply-edit';
import { unquotedLines } from '../../../../../src/core/tools/edit/unquoted-lines';

describe('lines a loose block match would change unseen', () => {
  it('finds the block\'s lines old_content skipped and the lines it invented, ignoring blank lines and indentation', () => {
    assert.deepEqual(unquotedLines(['a();', 'c();', 'd();'], ['a();', 'b();', 'c();', 'd();']), { skipped: [1], invented: [] });
    assert.deepEqual(unquotedLines(['a();', 'b();', 'x();', 'c();'], ['a();', '', '  b();', 'c();']), { skipped: [], invented: [2] });
    assert.deepEqual(unquotedLines(['a();', '', 'b();'], ['  a();', 'b();']), { skipped: [], invented: [] });
  });

  it('counts a misquoted line (both sides differ at the same place) as neither', () => {
    assert.deepEqual(unquotedLines(['a();', 'b(1);', 'c();'], ['a();', 'b(2);', 'c();']), { skipped: [], invented: [] });
  });

  it('makes planEdit refuse a block-anchor match that would delete a skipped line, and accept one whose new_content keeps it', () => {
    const file = 'a();\nb();\nc();\nd();\n';
    assert.deepEqual(planEdit({ text: file, oldContent: 'a();\nc();\nd();', newContent: 'a();\nC();\nd();', replaceAll: false }), {
      ok: false,
      reason: 'unquoted',
      block: [1, 4],
      skipped: [{ line: 2, text: 'b();' }],
      invented: [],
    });
    const kept = planEdit({ text: file, oldContent: 'a();\nc();\nd();', newContent: 'a();\nb();\nC();\nd();', replaceAll: false });
    assert.equal(kept.ok && kept.text, 'a();\nb();\nC();\nd();\n');
  });

  it('lets a misquoted middle line be replaced as before', () => {
    const r = planEdit({ text: 'f() {\n  one();\n  two(1);\n  three();\n}\n', oldContent: 'f() {\n  one();\n  two(2);\n  three();\n}', newContent: 'f() {\n  one();\n  two(3);\n  three();\n}', replaceAll: false });
    assert.equal(r.ok && r.pass, 'block-anchor');
    assert.equal(r.ok && r.text, 'f() {\n  one();\n  two(3);\n  three();\n}\n');
  });
});
