import * as assert from 'node:assert/strict';
import { planEdit } from '../../../../src/core/tools/edit/apply-edit';
import { EDIT_PASSES, runEditChain } from '../../../../src/core/tools/edit/chain';
import { decodeText, encodeReplacements } from '../../../../src/core/tools/edit/line-endings';
import { stripLineNumbers } from '../../../../src/core/tools/edit/line-numbers';
import type { EditPass } from '../../../../src/core/tools/edit/pass';
import { blockAnchorPass } from '../../../../src/core/tools/edit/pass-block-anchor';
import { contextAwarePass } from '../../../../src/core/tools/edit/pass-context-aware';
import { escapeNormalizedPass } from '../../../../src/core/tools/edit/pass-escape-normalized';
import { indentationFlexiblePass } from '../../../../src/core/tools/edit/pass-indentation-flexible';
import { lineTrimmedPass } from '../../../../src/core/tools/edit/pass-line-trimmed';
import { multiOccurrencePass } from '../../../../src/core/tools/edit/pass-multi-occurrence';
import { simplePass } from '../../../../src/core/tools/edit/pass-simple';
import { trimmedBoundaryPass } from '../../../../src/core/tools/edit/pass-trimmed-boundary';
import { whitespaceNormalizedPass } from '../../../../src/core/tools/edit/pass-whitespace-normalized';
import { describeShift, indentShift, reindent } from '../../../../src/core/tools/edit/reindent';
import { TextLines } from '../../../../src/core/tools/edit/text-lines';
import { unifiedDiff } from '../../../../src/core/tools/edit/unified-diff';

/** The texts a pass found, each checked to be exactly what the file holds at its range. */
function found(pass: EditPass, file: string, find: string): string[] {
  const lines = new TextLines(file);
  return pass.find(lines, find).map((m) => {
    assert.equal(file.slice(m.start, m.end), m.text, `${pass.name} must return the text actually in the file`);
    return m.text;
  });
}

function edit(text: string, oldContent: string, newContent: string, replaceAll = false) {
  return planEdit({ text, oldContent, newContent, replaceAll });
}

describe('edit passes (appendix D), each on its own', () => {
  it('runs the nine passes in the paper\'s order', () => {
    assert.deepEqual(EDIT_PASSES.map((p) => p.name), [
      'simple', 'line-trimmed', 'block-anchor', 'whitespace-normalized', 'indentation-flexible',
      'escape-normalized', 'trimmed-boundary', 'context-aware', 'multi-occurrence',
    ]);
  });

  describe('1 simple', () => {
    it('finds old_content exactly, every occurrence, overlapping ones too', () => {
      assert.deepEqual(found(simplePass, 'let a = 1;\nlet b = 1;', 'let a'), ['let a']);
      assert.equal(found(simplePass, 'aaa', 'aa').length, 2);
    });
    it('finds nothing when only whitespace differs', () => {
      assert.deepEqual(found(simplePass, '  foo( a )', 'foo(a)'), []);
    });
  });

  describe('2 line-trimmed', () => {
    it('matches whole lines ignoring their surrounding whitespace, returning them as the file has them', () => {
      assert.deepEqual(found(lineTrimmedPass, 'x\n    foo();   \n    bar();\ny', 'foo();\nbar();'), ['    foo();   \n    bar();']);
    });
    it('needs every line to match, not just a prefix', () => {
      assert.deepEqual(found(lineTrimmedPass, '  foo();\n  baz();', 'foo();\nbar();'), []);
    });
    it('treats a final newline in old_content as the end of its last line', () => {
      assert.deepEqual(found(lineTrimmedPass, 'a\n  b\nc', 'b\n'), ['  b']);
    });
  });

  describe('3 block-anchor', () => {
    const file = 'function getData() {\n    const results = fetchData();\n    return results.filter(Boolean);\n}\n';
    it('anchors on the first and last lines and accepts a middle at least half made of the file\'s lines', () => {
      const old = 'function getData() {\n    const result = fetchData();\n    return results.filter(Boolean);\n}';
      assert.deepEqual(found(blockAnchorPass, file, old), [file.trimEnd()]);
    });
    it('rejects a block whose middle lines are unrelated, even when it is the only candidate', () => {
      const configure = 'function configure() {\n  keepImportantState()\n  removeAllUserData()\n}';
      assert.deepEqual(found(blockAnchorPass, configure, 'function configure() {\n  const enabled = true\n}'), []);
    });
    it('rejects a middle where only one line of three is real (0.33 < 0.5)', () => {
      const calc = 'function calculate(a, b) {\n  const temp = a + b;\n  const result = temp * 2;\n  return result;\n}';
      assert.deepEqual(found(blockAnchorPass, calc, 'function calculate(a, b) {\n  // different middle content\n  return result;\n}'), []);
    });
    it('returns every qualifying block when several share the anchors (the chain then refuses)', () => {
      const two = 'if (a) {\n  x();\n  y();\n}\nif (a) {\n  x();\n  z();\n}';
      assert.equal(found(blockAnchorPass, two, 'if (a) {\n  x();\n  w();\n}').length, 2);
    });
    it('prefers the closing anchor that makes the best block, not the nearest one', () => {
      const nested = 'function f() {\n  if (x) {\n    a();\n  }\n  b();\n  c();\n}';
      const old = 'function f() {\n  if (x) {\n    a();\n  }\n  b();\n  d();\n}';
      assert.deepEqual(found(blockAnchorPass, nested, old), [nested]);
    });
    it('finds nothing, and returns, on a file of thousands of identical anchors', () => {
      // Its speed is measured in bench/tools (a 10,000-line file); here, what it answers.
      const braces = Array.from({ length: 10_000 }, (_, i) => (i % 2 ? '}' : '  x();')).join('\n');
      const old = `}\n${Array.from({ length: 100 }, (_, i) => `  y${i}();`).join('\n')}\n}`;
      assert.deepEqual(blockAnchorPass.find(new TextLines(braces), old), []);
    });
    it('needs at least three lines', () => {
      assert.deepEqual(found(blockAnchorPass, 'a\nb', 'a\nb'), []);
    });
  });

  describe('4 whitespace-normalized', () => {
    it('treats runs of spaces and tabs as one space inside a line', () => {
      assert.deepEqual(found(whitespaceNormalizedPass, 'const   x    =     5;', 'const x = 5;'), ['const   x    =     5;']);
      assert.deepEqual(found(whitespaceNormalizedPass, 'if\t \t( \tcondition\t )\t{', 'if ( condition ) {'), ['if\t \t( \tcondition\t )\t{']);
    });
    it('matches several lines as whole lines', () => {
      const file = 'function sum(a, b) {\n    return a + b;\n}';
      assert.deepEqual(found(whitespaceNormalizedPass, file, 'function   sum(a,   b)    {\n    return    a + b;\n}\n'), [file]);
    });
  });

  describe('5 indentation-flexible', () => {
    it('matches a block indented differently as a whole, keeping relative indentation', () => {
      const file = 'class A {\n        if (x) {\n          y();\n        }\n}';
      assert.deepEqual(found(indentationFlexiblePass, file, 'if (x) {\n  y();\n}'), ['        if (x) {\n          y();\n        }']);
    });
    it('refuses when the relative indentation differs (line-trimmed would not)', () => {
      const file = '    if (x) {\n    y();\n    }';
      assert.deepEqual(found(indentationFlexiblePass, file, 'if (x) {\n  y();\n}'), []);
      assert.equal(found(lineTrimmedPass, file, 'if (x) {\n  y();\n}').length, 1);
    });
  });

  describe('6 escape-normalized', () => {
    it('undoes \\n, \\t, \\\\ and quote escapes a model adds', () => {
      assert.deepEqual(found(escapeNormalizedPass, 'console.log("Hello\nWorld");', 'console.log("Hello\\nWorld");'), ['console.log("Hello\nWorld");']);
      assert.deepEqual(found(escapeNormalizedPass, "const path = 'C:\\Users\\test';", "const path = 'C:\\\\Users\\\\test';"), ["const path = 'C:\\Users\\test';"]);
      assert.deepEqual(found(escapeNormalizedPass, "say('It's');", "say('It\\'s');"), ["say('It's');"]);
      assert.deepEqual(found(escapeNormalizedPass, 'a\tb', 'a\\tb'), ['a\tb']);
    });
    it('has nothing to do when old_content holds no escapes', () => {
      assert.deepEqual(found(escapeNormalizedPass, 'plain', 'plain'), []);
    });
  });

  describe('7 trimmed-boundary', () => {
    it('drops whitespace and blank lines at old_content\'s two ends', () => {
      assert.deepEqual(found(trimmedBoundaryPass, 'call(foo(bar));', '\n\n  foo(bar)  \n'), ['foo(bar)']);
    });
    it('falls back to whole lines once blank boundary lines are gone', () => {
      const file = '    line1\n    line2\n    line3\n';
      assert.deepEqual(found(trimmedBoundaryPass, file, '\n  line1\n  line2\n'), ['    line1\n    line2']);
    });
    it('has nothing to do when old_content has no boundary whitespace', () => {
      assert.deepEqual(found(trimmedBoundaryPass, 'abc', 'abc'), []);
    });
  });

  describe('8 context-aware', () => {
    const file = 'def f():\n    a = 1\n    b = 2\n    c = 3\n    return a\n';
    it('anchors on the first and last non-empty lines with half the middle lines equal, same length', () => {
      const old = '\ndef f():\n    a = 1\n    b = 20\n    c = 3\n    return a\n\n';
      assert.deepEqual(found(contextAwarePass, file, old), [file.trimEnd()]);
    });
    it('refuses when fewer than half of the middle lines are the file\'s', () => {
      const old = 'def f():\n    a = 10\n    b = 20\n    c = 3\n    return a';
      assert.deepEqual(found(contextAwarePass, file, old), []);
    });
    it('refuses a block of another length', () => {
      assert.deepEqual(found(contextAwarePass, file, 'def f():\n    a = 1\n    return a'), []);
    });
  });

  describe('9 multi-occurrence', () => {
    it('finds every occurrence, also one that starts and ends inside lines', () => {
      const file = 'x = call(a,\n      b) + 1\ny = call(a,\n  b)';
      assert.deepEqual(found(multiOccurrencePass, file, 'call(a,\n    b)'), ['call(a,\n      b)', 'call(a,\n  b)']);
    });
    it('finds each occurrence of a one-line old_content, trimmed', () => {
      assert.equal(found(multiOccurrencePass, 'foo; foo;', '  foo  ').length, 2);
    });
  });
});

describe('the edit chain', () => {
  it('lets the first pass that finds anything decide', () => {
    const file = new TextLines('  foo();\nfoo();');
    assert.equal(runEditChain(file, 'foo();')?.pass, 'simple');
    assert.equal(runEditChain(new TextLines('  foo();  \n'), 'foo();\n')?.pass, 'line-trimmed');
  });
  it('does not let a looser pass pick one of an earlier pass\'s several matches', () => {
    const r = edit('let x = 1;\n  x = 1\n', 'x = 1', 'x = 2');
    assert.deepEqual(r, { ok: false, reason: 'ambiguous', lines: [1, 2] });
  });
  it('matches whitespace-only old_content exactly or not at all', () => {
    assert.equal(runEditChain(new TextLines('a\n\nb'), '  \n'), undefined);
  });
  it('reports the lines of every match when old_content is not unique', () => {
    const r = edit('test\ntest\ndifferent content\ntest', 'test', 'updated');
    assert.deepEqual(r, { ok: false, reason: 'ambiguous', lines: [1, 2, 4] });
  });
  it('replaces every match with replace_all, non-overlapping, left to right', () => {
    const r = edit('aaaa', 'aa', 'b', true);
    assert.equal(r.ok && r.text, 'bb');
  });
  it('refuses identical old and new, and empty old_content on a non-empty file', () => {
    assert.deepEqual(edit('x', 'same', 'same'), { ok: false, reason: 'identical' });
    assert.deepEqual(edit('x', '', 'y'), { ok: false, reason: 'empty_old' });
    const empty = edit('', '', 'first line\n');
    assert.equal(empty.ok && empty.text, 'first line\n');
  });
  it('names the lines holding old_content\'s first line when the rest does not match', () => {
    const r = edit('function a() {\n  one();\n}\n', 'function a() {\n  two();\n  three();\n  four();\n}', 'x');
    assert.deepEqual(r, { ok: false, reason: 'not_found', lines: [1] });
  });
  it('removes line-number prefixes copied from read_file (or "12 | " style) when nothing matched with them', () => {
    assert.equal(stripLineNumbers('     3\tfoo\n     4\tbar\n'), 'foo\nbar\n');
    assert.equal(stripLineNumbers('1 | foo\n2 | bar'), 'foo\nbar');
    assert.equal(stripLineNumbers('3 apples\nno number'), undefined);
    const r = edit('a\nfoo\nbar\n', '     2\tfoo\n     3\tbar', '     2\tFOO\n     3\tbar');
    assert.equal(r.ok && r.text, 'a\nFOO\nbar\n');
    assert.equal(r.ok && r.lineNumbersStripped, true);
  });
  it('keeps a trailing newline in step: at the end of a file without one, new_content drops its own', () => {
    const r = edit('a\nlast', 'last\n', 'final\n');
    assert.equal(r.ok && r.text, 'a\nfinal');
    const inner = edit('  a\nb\n', 'a\n', 'c\n');
    assert.equal(inner.ok && inner.text, '  c\nb\n');
  });
});

describe('re-indentation after a fuzzy match', () => {
  it('shifts new_content by the indentation the file has where old_content matched', () => {
    const r = edit('class A {\n    run() {\n        go();\n    }\n}', 'run() {\n    go();\n}', 'run() {\n    stop();\n    go();\n}');
    assert.equal(r.ok && r.text, 'class A {\n    run() {\n        stop();\n        go();\n    }\n}');
    assert.equal(r.ok && r.shift && describeShift(r.shift), '+4 spaces');
  });
  it('removes indentation when old_content was indented more than the file', () => {
    const r = edit('if (x) {\n  y();\n}', '    if (x) {\n      y();\n    }', '    if (x) {\n      z();\n    }');
    assert.equal(r.ok && r.text, 'if (x) {\n  z();\n}');
  });
  it('maps one indentation style to another (spaces in old_content, a tab in the file)', () => {
    const r = edit('function test() {\n\tconsole.log("hello");\n}', '  console.log("hello");', '  console.log("world");');
    assert.equal(r.ok && r.text, 'function test() {\n\tconsole.log("world");\n}');
  });
  it('leaves new_content as written when the differences are inconsistent', () => {
    const r = edit('  if (true) {\n    return false;\n  }', 'if (true) {\nreturn false;\n}', 'if (false) {\nreturn true;\n}');
    assert.equal(r.ok && r.text, 'if (false) {\nreturn true;\n}');
  });
  it('never re-indents an exact match', () => {
    const r = edit('    a();\n', '    a();', 'b();');
    assert.equal(r.ok && r.text, 'b();\n');
  });
  it('re-indents the lines after the first when the match starts inside a line', () => {
    const r = edit('x = call(a,\n      b) + 1', 'call(a,\n    b)', 'call(a,\n    c)');
    assert.equal(r.ok && r.pass, 'multi-occurrence');
    assert.equal(r.ok && r.text, 'x = call(a,\n      c) + 1');
  });
  it('maps nesting levels when old_content nests by another step than the file (2 spaces for 4, spaces for tabs)', () => {
    assert.deepEqual(indentShift(['a {', '  b', '}'], ['    a {', '        b', '    }'], false), { from: '', to: '    ', unit: { from: '  ', to: '    ' } });
    assert.deepEqual(indentShift(['  x', '    y'], ['\tx', '\t\ty'], false), { from: '  ', to: '\t', unit: { from: '  ', to: '\t' } });
    const shift = { from: '  ', to: '    ', unit: { from: '  ', to: '    ' } };
    // Deeper levels scale; an alignment rest after whole levels stays; a line below the base loses whole levels.
    assert.equal(reindent('  a\n      b\n     c\n}', shift, false), '    a\n            b\n         c\n}');
    assert.equal(describeShift(shift), '+2 spaces, levels of 2 spaces as 4 spaces');
    assert.equal(describeShift({ from: '', to: '', unit: { from: '    ', to: '\t' } }), 'levels of 4 spaces as 1 tab');
  });
  it('still refuses to guess when levels do not map one to one', () => {
    assert.equal(indentShift(['a', '  b', '    c'], ['a', '    b', '      c'], false), undefined);
    assert.equal(indentShift(['a', ' \tb'], ['a', '    b'], false), undefined);
  });
  it('computes the shift from consistent pairs only and can skip a first line that starts mid-line', () => {
    assert.deepEqual(indentShift(['a', '  b'], ['    a', '      b'], false), { from: '', to: '    ' });
    assert.equal(indentShift(['a', '  b'], ['    a', '    b'], false), undefined);
    assert.deepEqual(indentShift(['call(', '  x)'], ['call(', '      x)'], true), { from: '  ', to: '      ' });
    assert.equal(reindent('one\n  two\n\n', { from: '', to: '\t' }, true), 'one\n\t  two\n\n');
  });
});

describe('line endings and BOM', () => {
  it('matches on LF text and writes CRLF back into a CRLF file', () => {
    const decoded = decodeText('\uFEFFa\r\nb\r\nc\r\n');
    assert.equal(decoded.text, 'a\nb\nc\n');
    const r = planEdit({ text: decoded.text, oldContent: 'b\r\n', newContent: 'B1\nB2\n', replaceAll: false });
    assert.ok(r.ok);
    assert.equal(encodeReplacements(decoded, r.replacements), '\uFEFFa\r\nB1\r\nB2\r\nc\r\n');
  });
  it('leaves the bytes outside the edit alone in a file with mixed endings', () => {
    const decoded = decodeText('a\r\nb\nc\r\nd\n');
    const r = planEdit({ text: decoded.text, oldContent: 'c', newContent: 'C', replaceAll: false });
    assert.ok(r.ok);
    assert.equal(encodeReplacements(decoded, r.replacements), 'a\r\nb\nC\r\nd\n');
  });
});

describe('unified diff', () => {
  it('has headers, a hunk with 3 lines of context and the +/− counts', () => {
    const before = ['1', '2', '3', '4', '5', '6', '7', '8'].join('\n') + '\n';
    const after = ['1', '2', '3', '4x', '4y', '5', '6', '7', '8'].join('\n') + '\n';
    const d = unifiedDiff(before, after, 'src/a.ts');
    assert.equal(d.text, ['--- a/src/a.ts', '+++ b/src/a.ts', '@@ -1,7 +1,8 @@', ' 1', ' 2', ' 3', '-4', '+4x', '+4y', ' 5', ' 6', ' 7'].join('\n'));
    assert.equal(d.added, 2);
    assert.equal(d.removed, 1);
  });
  it('splits distant changes into separate hunks and handles insertions into an empty file', () => {
    const before = Array.from({ length: 30 }, (_, i) => `l${i}`).join('\n');
    const after = before.replace('l2\n', 'L2\n').replace('l25\n', 'L25\n');
    assert.equal((unifiedDiff(before, after, 'f').text.match(/^@@/gm) ?? []).length, 2);
    assert.match(unifiedDiff('', 'new\n', 'f').text, /@@ -0,0 \+1,1 @@\n\+new/);
  });
  it('diffs a 10,000-line file with one changed line into one hunk', () => {
    // Its speed is measured in bench/tools (edits of a 10,000-line file); here, what it answers.
    const before = Array.from({ length: 10_000 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace('line 5000\n', 'changed\n');
    const d = unifiedDiff(before, after, 'big');
    assert.equal(d.added, 1);
    assert.equal(d.removed, 1);
    assert.equal((d.text.match(/^@@/gm) ?? []).length, 1);
  });
});

