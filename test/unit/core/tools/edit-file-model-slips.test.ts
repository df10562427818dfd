import * as assert from 'node:assert/strict';
import type { ToolResult } from '../../../../src/core/tools/tool';
import { fileToolWorkspace } from '../../../helpers/file-tool-workspace';

/**
 * The seven ways a model's old_content / new_content commonly differ from the file, through the real
 * tool: each ends in the exact bytes the model meant, or in a refusal with the file byte-identical.
 * Never in a success with a result the model did not mean.
 */
describe('edit_file on the seven kinds of model slip', () => {
  const ws = fileToolWorkspace('opendev-slips-');
  const { call, bytes, text, prepare } = ws;
  const edit = (file_path: string, old_content: string, new_content: string, replace_all?: boolean) =>
    call('edit_file', { file_path, old_content, new_content, ...(replace_all === undefined ? {} : { replace_all }) });
  /** The edit is refused, and the file has exactly its bytes from before. */
  const assertRefused = async (name: string, attempt: () => Promise<ToolResult>, message: RegExp): Promise<ToolResult> => {
    const before = bytes(name);
    const r = await attempt();
    assert.equal(r.ok, false, `expected a refusal, but the edit applied:\n${text(name)}`);
    assert.equal(r.errorKind, 'edit_mismatch');
    assert.match(r.output, message);
    assert.deepEqual(bytes(name), before, 'a refused edit leaves the file byte-identical');
    return r;
  };


  describe('1 whitespace / indentation drift', () => {
    it('re-indents 2-space text given for a 4-space class body to the file\'s 4-space levels', async () => {
      await prepare('cart.ts', 'class Cart {\n    total(items) {\n        let sum = 0;\n        return sum;\n    }\n}\n');
      const r = await edit(
        'cart.ts',
        '  total(items) {\n    let sum = 0;\n    return sum;\n  }',
        '  total(items) {\n    let sum = 0;\n    for (const item of items) {\n      sum += item.price;\n    }\n    return sum;\n  }',
      );
      assert.equal(r.ok, true, r.output);
      assert.equal(text('cart.ts'), 'class Cart {\n    total(items) {\n        let sum = 0;\n        for (const item of items) {\n            sum += item.price;\n        }\n        return sum;\n    }\n}\n');
      assert.match(r.output, /new_content re-indented \+2 spaces, levels of 2 spaces as 4 spaces/);
    });

    it('keeps a Python method valid: 2-space text with no base indentation lands at the class\'s 4-space levels', async () => {
      await prepare('shop.py', 'class Shop:\n    def total(self, items):\n        return 0\n\n    def name(self):\n        return "shop"\n');
      const r = await edit('shop.py', 'def total(self, items):\n  return 0', 'def total(self, items):\n  sum = 0\n  for item in items:\n    sum += item.price\n  return sum');
      assert.equal(r.ok, true, r.output);
      assert.equal(
        text('shop.py'),
        'class Shop:\n    def total(self, items):\n        sum = 0\n        for item in items:\n            sum += item.price\n        return sum\n\n    def name(self):\n        return "shop"\n',
      );
      assert.doesNotMatch(r.output, /Warning/);
    });

    it('maps each 2-space level to 4 spaces for a line added after the closing brace', async () => {
      await prepare('nest.ts', 'function f() {\n    if (a) {\n        b();\n    }\n}\n');
      const r = await edit('nest.ts', '    b();\n  }', '    b();\n  }\n  c();');
      assert.equal(r.ok, true, r.output);
      assert.equal(text('nest.ts'), 'function f() {\n    if (a) {\n        b();\n    }\n    c();\n}\n');
    });
  });

  describe('2 CRLF', () => {
    it('edits a CRLF file with LF arguments and writes CRLF, other lines untouched', async () => {
      await prepare('win.cs', 'class A\r\n{\r\n    int x = 1;\r\n}\r\n');
      const r = await edit('win.cs', '    int x = 1;\n}', '    int x = 2;\n    int y = 3;\n}');
      assert.equal(r.ok, true, r.output);
      assert.deepEqual(bytes('win.cs'), Buffer.from('class A\r\n{\r\n    int x = 2;\r\n    int y = 3;\r\n}\r\n'));
    });

    it('edits an LF file with CRLF arguments and writes LF', async () => {
      await prepare('unix.sh', 'echo one\necho two\n');
      const r = await edit('unix.sh', 'echo one\r\necho two', 'echo 1\r\necho 2');
      assert.equal(r.ok, true, r.output);
      assert.deepEqual(bytes('unix.sh'), Buffer.from('echo 1\necho 2\n'));
    });
  });

  describe('3 trailing whitespace', () => {
    it('matches lines whose trailing spaces and tabs old_content left out, and leaves the other lines\' bytes alone', async () => {
      await prepare('t.js', 'const a = 1;  \nfunction f() { \n  return 1;\t\n}\nconst b = 2;   \n');
      const r = await edit('t.js', 'function f() {\n  return 1;\n}', 'function f() {\n  return 2;\n}');
      assert.equal(r.ok, true, r.output);
      assert.equal(text('t.js'), 'const a = 1;  \nfunction f() {\n  return 2;\n}\nconst b = 2;   \n');
      assert.match(r.output, /line-trimmed pass/);
    });

    it('matches when old_content carries trailing whitespace the file does not have', async () => {
      await prepare('u.js', 'let x = 1;\nlet y = 2;\n');
      const r = await edit('u.js', 'let x = 1;   \nlet y = 2; ', 'let x = 10;\nlet y = 20;');
      assert.equal(r.ok, true, r.output);
      assert.equal(text('u.js'), 'let x = 10;\nlet y = 20;\n');
    });
  });

  describe('4 escaped \\n', () => {
    it('writes real newlines when old_content and new_content both came with literal \\n', async () => {
      await prepare('add.ts', 'export function add(a: number, b: number) {\n  return a + b;\n}\n\nexport const one = 1;\n');
      const r = await edit(
        'add.ts',
        'export function add(a: number, b: number) {\\n  return a + b;\\n}',
        'export function add(a: number, b: number) {\\n  const sum = a + b;\\n  return sum;\\n}',
      );
      assert.equal(r.ok, true, r.output);
      assert.equal(text('add.ts'), 'export function add(a: number, b: number) {\n  const sum = a + b;\n  return sum;\n}\n\nexport const one = 1;\n');
      assert.match(r.output, /escape-normalized pass/);
      assert.doesNotMatch(r.output, /Warning/);
    });

    it('undoes escaped quotes and tabs in new_content the same way', async () => {
      await prepare('q.js', 'log("hi");\n\tlog("there");\n');
      const r = await edit('q.js', 'log(\\"hi\\");\\n\\tlog(\\"there\\");', 'log(\\"hello\\");\\n\\tlog(\\"there\\");');
      assert.equal(r.ok, true, r.output);
      assert.equal(text('q.js'), 'log("hello");\n\tlog("there");\n');
    });

    it('keeps a \\n that the file really has inside a string literal when old_content matches exactly', async () => {
      await prepare('sep.ts', 'const sep = "\\n";\nconst tab = "\\t";\n');
      const r = await edit('sep.ts', 'const sep = "\\n";', 'const sep = "\\r\\n";');
      assert.equal(r.ok, true, r.output);
      assert.equal(text('sep.ts'), 'const sep = "\\r\\n";\nconst tab = "\\t";\n');
    });

    it('keeps such a \\n too when old_content matched by another fuzzy pass (extra indentation)', async () => {
      await prepare('sep2.ts', 'function lines(s) {\n  return s.split("\\n");\n}\n');
      const r = await edit('sep2.ts', '      return s.split("\\n");', '      return s.split("\\n").filter(Boolean);');
      assert.equal(r.ok, true, r.output);
      assert.equal(text('sep2.ts'), 'function lines(s) {\n  return s.split("\\n").filter(Boolean);\n}\n');
    });
  });

  describe('5 tabs given as spaces', () => {
    it('writes the file\'s tabs at every nesting level for new_content given with 4-space levels', async () => {
      await prepare('main.go', 'package main\n\nfunc main() {\n\tif ok {\n\t\treturn\n\t}\n}\n');
      const r = await edit('main.go', '    if ok {\n        return\n    }', '    if ok {\n        log()\n        return\n    }');
      assert.equal(r.ok, true, r.output);
      assert.equal(text('main.go'), 'package main\n\nfunc main() {\n\tif ok {\n\t\tlog()\n\t\treturn\n\t}\n}\n');
      assert.match(r.output, /re-indented "    " → "\\t", levels of 4 spaces as 1 tab/);
    });
  });

  describe('6 a non-unique match', () => {
    it('is refused with the count and the lines, the file unchanged; replace_all then changes all', async () => {
      await prepare('dup.ts', 'retry();\nwork();\nretry();\n');
      await assertRefused('dup.ts', () => edit('dup.ts', 'retry();', 'retryOnce();'), /matches 2 places in dup\.ts \(lines 1, 3\)/);
      const all = await edit('dup.ts', 'retry();', 'retryOnce();', true);
      assert.equal(all.ok, true, all.output);
      assert.equal(text('dup.ts'), 'retryOnce();\nwork();\nretryOnce();\n');
    });

    it('is refused when a fuzzy pass finds old_content at two places', async () => {
      await prepare('dup2.py', 'def a():\n    x = 1\n    return x\n\ndef b():\n    x = 1\n    return x\n');
      await assertRefused('dup2.py', () => edit('dup2.py', 'x = 1\n  return x', 'x = 2\n  return x'), /matches 2 places in dup2\.py \(lines 2, 6\)/);
    });
  });

  describe('7 a missing line', () => {
    const source = 'function total(items) {\n  let sum = 0;\n  for (const item of items) {\n    sum += item.price;\n  }\n  return sum;\n}\n';

    it('is refused when old_content skips a line of the file that new_content does not keep', async () => {
      await prepare('total.js', source);
      const r = await assertRefused(
        'total.js',
        () => edit('total.js', '  let sum = 0;\n    sum += item.price;\n  }', '  let sum = 1;\n    sum += item.price;\n  }'),
        /old_content matched lines 2–5 of total\.js only loosely/,
      );
      assert.match(r.output, /line 3 `for \(const item of items\) \{` is in the file but not in old_content/);
    });

    it('is refused when old_content holds a line the file does not have', async () => {
      await prepare('total2.js', source);
      await assertRefused('total2.js', () => edit('total2.js', '  let sum = 0;\n  let count = 0;\n  for (const item of items) {', '  let sum = 0;\n  let count = 1;\n  for (const item of items) {'), /old_content was not found in total2\.js/);
    });

    it('is refused when old_content invents a line inside a block and new_content keeps it', async () => {
      await prepare('total3.js', source);
      const r = await assertRefused(
        'total3.js',
        () =>
          edit(
            'total3.js',
            'function total(items) {\n  let sum = 0;\n  for (const item of items) {\n    sum += item.price;\n    count++;\n  }\n  return sum;\n}',
            'function total(items) {\n  let sum = 0;\n  for (const item of items) {\n    sum += item.cost;\n    count++;\n  }\n  return sum;\n}',
          ),
        /only loosely/,
      );
      assert.match(r.output, /`count\+\+;` is in old_content but not in the file there, and new_content keeps it/);
    });
  });
});
