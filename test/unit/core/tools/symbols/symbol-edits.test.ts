import * as assert from 'node:assert/strict';
import type { DocumentSymbolNode } from '../../../../../src/core/symbol-port';
import { reindent } from '../../../../../src/core/tools/symbols/indentation';
import { SourceText } from '../../../../../src/core/tools/symbols/source-text';
import { applyTextEdit, planBodyReplacement, planInsertion, type PlannedEdit } from '../../../../../src/core/tools/symbols/symbol-edits';

/**
 * A symbol as a language server reports it: `range` from the first character of `from` (after
 * its indentation, like TypeScript's spans) to the end of `to`; `selectionRange` is `name` in it.
 */
function symbolAt(source: SourceText, name: string, from: string, to: string, fromIndex = 0): DocumentSymbolNode {
  const start = source.text.indexOf(from, fromIndex);
  assert.ok(start >= 0, `${from} is in the text`);
  const end = source.text.indexOf(to, start) + to.length;
  const nameAt = source.text.indexOf(name, start);
  const range = { start: source.positionAt(start), end: source.positionAt(end) };
  return { name, kind: 'method', range, selectionRange: { start: source.positionAt(nameAt), end: source.positionAt(nameAt + name.length) }, children: [] };
}

function applied(source: SourceText, planned: PlannedEdit): string {
  assert.ok(planned.ok, planned.ok ? '' : planned.reason);
  return applyTextEdit(source, planned.edit);
}

const TS = `export class Rectangle {
  constructor(readonly w: number, readonly h: number) {}

  /** Width times height. */
  @logged
  area(): number {
    return this.w * this.h;
  }

  perimeter(): number { return 2 * (this.w + this.h); }
}
`;

describe('symbol edits', () => {
  describe('replace_symbol_body, brace languages', () => {
    it('keeps the doc comment, decorator and signature and indents the new body like the old one', () => {
      const source = new SourceText(TS);
      const area = symbolAt(source, 'area', '@logged', '    return this.w * this.h;\n  }');
      const out = applied(source, planBodyReplacement(source, area, 'const product = this.h * this.w;\nreturn product;', 'braces'));
      assert.equal(
        out,
        TS.replace('    return this.w * this.h;\n', '    const product = this.h * this.w;\n    return product;\n'),
      );
    });

    it('opens a one-line body onto its own lines, one level deeper than the declaration', () => {
      const source = new SourceText(TS);
      const perimeter = symbolAt(source, 'perimeter', 'perimeter()', '}');
      const out = applied(source, planBodyReplacement(source, perimeter, '  return 2 * this.w + 2 * this.h;', 'braces'));
      assert.match(out, /\n {2}perimeter\(\): number \{\n {4}return 2 \* this\.w \+ 2 \* this\.h;\n {2}\}\n\}\n$/);
    });

    it('finds the body brace past braces in the signature, strings and template literals', () => {
      const text = 'function f(o: { a: number } = { a: 1 }): { b: string } {\n  const s = `}${"{"}`;\n  return { b: s };\n}\n';
      const source = new SourceText(text);
      const f = symbolAt(source, 'f', 'function f', 'return { b: s };\n}');
      const out = applied(source, planBodyReplacement(source, f, 'return { b: "x" };', 'braces'));
      assert.equal(out, 'function f(o: { a: number } = { a: 1 }): { b: string } {\n  return { b: "x" };\n}\n');
    });

    it('drops braces the model wrapped the body in, keeps tabs and CRLF of the file', () => {
      const text = 'class A {\r\n\tm() {\r\n\t\treturn 1;\r\n\t}\r\n}\r\n';
      const source = new SourceText(text);
      const m = symbolAt(source, 'm', 'm()', '\t}');
      const out = applied(source, planBodyReplacement(source, m, '{\n  return 2;\n}', 'braces'));
      assert.equal(out, 'class A {\r\n\tm() {\r\n\t\treturn 2;\r\n\t}\r\n}\r\n');
    });

    it('refuses a body that repeats the declaration line, and a symbol with no block', () => {
      const source = new SourceText(TS);
      const area = symbolAt(source, 'area', 'area()', '    return this.w * this.h;\n  }');
      const repeated = planBodyReplacement(source, area, 'area(): number {\n  return 1;\n}', 'braces');
      assert.ok(!repeated.ok && /only the body/.test(repeated.reason));
      const constant = new SourceText('export const LIMIT = 5;\n');
      const limit = symbolAt(constant, 'LIMIT', 'LIMIT', '5');
      const noBlock = planBodyReplacement(constant, limit, 'return 1;', 'braces');
      assert.ok(!noBlock.ok && /edit_file/.test(noBlock.reason));
    });
  });

  describe('replace_symbol_body, Python', () => {
    const PY = 'class Greeter:\n    @staticmethod\n    def greet(name: str) -> "dict[str, int]":\n        """Say hello.\n\n        Politely."""\n        print("hi:", name)\n        return {}\n\n    def bye(self): return 0\n';

    it('keeps the decorator, the signature (with a colon in its annotation) and the docstring', () => {
      const source = new SourceText(PY);
      const greet = symbolAt(source, 'greet', 'def greet', 'return {}');
      const out = applied(source, planBodyReplacement(source, greet, 'return {"n": len(name)}', 'python'));
      assert.equal(out, PY.replace('        print("hi:", name)\n        return {}\n', '        return {"n": len(name)}\n'));
    });

    it('moves a one-line body onto an indented line, and an empty body becomes pass', () => {
      const source = new SourceText(PY);
      const bye = symbolAt(source, 'bye', 'def bye', 'return 0');
      assert.match(applied(source, planBodyReplacement(source, bye, 'x = 1\nreturn x', 'python')), /def bye\(self\):\n {8}x = 1\n {8}return x\n$/);
      assert.match(applied(source, planBodyReplacement(source, bye, '', 'python')), /def bye\(self\):\n {8}pass\n$/);
    });
  });

  describe('insert_before_symbol / insert_after_symbol', () => {
    it('inserts after a method at its indentation, a blank line on both sides between siblings', () => {
      const source = new SourceText(TS);
      const area = symbolAt(source, 'area', '@logged', '    return this.w * this.h;\n  }');
      const out = applied(source, planInsertion(source, area, 'diagonal(): number {\n  return Math.hypot(this.w, this.h);\n}', 'after'));
      assert.ok(
        out.includes('    return this.w * this.h;\n  }\n\n  diagonal(): number {\n    return Math.hypot(this.w, this.h);\n  }\n\n  perimeter()'),
        out,
      );
    });

    it('adds no blank line before the closing brace of the class', () => {
      const source = new SourceText(TS);
      const perimeter = symbolAt(source, 'perimeter', 'perimeter()', '}');
      const out = applied(source, planInsertion(source, perimeter, 'get size(): number { return 2; }', 'after'));
      assert.ok(out.endsWith('return 2 * (this.w + this.h); }\n\n  get size(): number { return 2; }\n}\n'), out);
    });

    it('inserts before a method above its doc comment and decorator', () => {
      const source = new SourceText(TS);
      const area = symbolAt(source, 'area', 'area()', '    return this.w * this.h;\n  }');
      const out = applied(source, planInsertion(source, area, '\t\tstatic unit = 1;\n', 'before'));
      assert.ok(out.includes('{}\n\n  static unit = 1;\n\n  /** Width times height. */\n  @logged\n  area()'), out);
    });

    it('refuses empty content', () => {
      const source = new SourceText(TS);
      const area = symbolAt(source, 'area', 'area()', '  }');
      assert.equal(planInsertion(source, area, '  \n', 'after').ok, false);
    });
  });

  it('re-indents code the model wrote at any depth, without trailing spaces on blank lines', () => {
    assert.equal(reindent('\n      if (x) {\n        y();\n\n      }\n', '  ', '\n'), '  if (x) {\n    y();\n\n  }');
  });
});
