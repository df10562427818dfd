import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DocumentSymbolNode, FileDiagnostic, FileEdit, FileLocation, SymbolPort, TextRange } from '../../../../../src/core/symbol-port';
import { findReferencingSymbolsTool } from '../../../../../src/core/tools/find-referencing-symbols';
import { findSymbolTool } from '../../../../../src/core/tools/find-symbol';
import { renameSymbolTool } from '../../../../../src/core/tools/rename-symbol';
import { replaceSymbolBodyTool } from '../../../../../src/core/tools/replace-symbol-body';
import { SourceText } from '../../../../../src/core/tools/symbols/source-text';
import { ToolError, type ToolExecutionContext } from '../../../../../src/core/tools/tool';
import { toolContext } from '../../../../helpers/tool-context';

/**
 * The symbol tools over a stand-in for the editor: files on disk, symbol trees written by hand,
 * edits applied to the files. The real providers are exercised in test/integration/symbol-tools.
 */
const SHAPES = `export class Rectangle {
  /** Width times height. */
  area(): number {
    return 2 * 3;
  }
}

export function totalArea(): number {
  return new Rectangle().area();
}
`;

function rangeOf(source: SourceText, text: string, from = 0): TextRange {
  const start = source.text.indexOf(text, from);
  return { start: source.positionAt(start), end: source.positionAt(start + text.length) };
}

function node(source: SourceText, name: string, kind: string, whole: string, children: DocumentSymbolNode[] = []): DocumentSymbolNode {
  const range = rangeOf(source, whole);
  const at = source.text.indexOf(whole);
  return { name, kind, range, selectionRange: rangeOf(source, name, at), children };
}

function shapesTree(text: string): DocumentSymbolNode[] {
  const s = new SourceText(text);
  const areaBody = text.slice(text.indexOf('area(): number {'), text.indexOf('  }\n}') + 3);
  return [
    node(s, 'Rectangle', 'class', text.slice(0, text.indexOf('}\n\n') + 1), [node(s, 'area', 'method', areaBody)]),
    node(s, 'totalArea', 'function', text.slice(text.indexOf('export function')).trimEnd()),
  ];
}

interface FakeEditor extends SymbolPort {
  dirty: Set<string>;
  diagnosticsAfterEdit: FileDiagnostic[];
  renameResult: FileEdit[];
  referenceResult: FileLocation[];
}

function fakeEditor(): FakeEditor {
  const editor: FakeEditor = {
    dirty: new Set(),
    diagnosticsAfterEdit: [],
    renameResult: [],
    referenceResult: [],
    workspaceSymbols: async () => [],
    documentSymbols: async (file) => (file.endsWith('shapes.ts') ? shapesTree(readFileSync(file, 'utf8')) : []),
    readDocument: async (file) => ({ text: readFileSync(file, 'utf8'), dirty: editor.dirty.has(file) }),
    references: async () => editor.referenceResult,
    renameEdits: async () => editor.renameResult,
    applyEdits: async (edits) => {
      for (const { file, edits: changes } of edits) {
        const source = new SourceText(readFileSync(file, 'utf8'));
        let text = source.text;
        // Bottom-up, so earlier offsets stay valid.
        for (const e of [...changes].sort((a, b) => source.offsetAt(b.range.start) - source.offsetAt(a.range.start))) {
          text = text.slice(0, source.offsetAt(e.range.start)) + e.newText + text.slice(source.offsetAt(e.range.end));
        }
        writeFileSync(file, text);
      }
      return { files: edits.map((e) => e.file), diagnosticsAfter: async (f) => editor.diagnosticsAfterEdit.filter((d) => d.file === f), dispose: () => {} };
    },
    diagnostics: async () => [],
    watchWrite: (file) => ({ diagnosticsAfter: async () => editor.diagnosticsAfterEdit.filter((d) => d.file === file), dispose: () => {} }),
  };
  return editor;
}

describe('symbol tools (over a stand-in editor)', () => {
  let dir: string;
  let editor: FakeEditor;
  let ctx: ToolExecutionContext;
  const shapes = () => join(dir, 'src', 'shapes.ts');

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'opendev-symbols-'));
    writeFileSync(join(dir, 'README.md'), 'Rectangle docs\n');
    mkdirSync(join(dir, 'src'));
    writeFileSync(shapes(), SHAPES);
    editor = fakeEditor();
    ctx = toolContext({ workspaceRoot: dir, host: { symbols: editor } });
  });

  it('find_symbol falls back to a text search when the workspace provider knows nothing, and lists kind, location and preview', async () => {
    const result = await findSymbolTool.run({ name_path: 'area' }, ctx);
    assert.equal(result.ok, true);
    assert.equal(result.output, `1 symbol match area:\n\nsrc/shapes.ts:3:3 method Rectangle.area\n    area(): number {\n      return 2 * 3;\n    }`);
    const wildcard = await findSymbolTool.run({ name_path: '*Area' }, ctx);
    assert.match(wildcard.output, /src\/shapes\.ts:8:17 function totalArea/);
    const none = await findSymbolTool.run({ name_path: 'Circle.area' }, ctx);
    assert.match(none.output, /No symbol matches Circle\.area/);
  });

  it('find_referencing_symbols groups references by file with the symbol each one is in', async () => {
    const source = new SourceText(SHAPES);
    const call = rangeOf(source, 'area()', SHAPES.indexOf('new Rectangle'));
    editor.referenceResult = [{ file: shapes(), range: rangeOf(source, 'area') }, { file: shapes(), range: call }, { file: '/elsewhere/lib.d.ts', range: call }];
    const result = await findReferencingSymbolsTool.run({ name_path: 'Rectangle.area' }, ctx);
    assert.equal(
      result.output,
      '1 reference to Rectangle.area in 1 file (declared at src/shapes.ts:3:3):\n\nsrc/shapes.ts (1)\n  9:26 in totalArea: return new Rectangle().area();\n\n1 more outside the workspace.',
    );
  });

  it('replace_symbol_body edits through the editor and reports the errors the file has afterwards', async () => {
    editor.diagnosticsAfterEdit = [
      { file: shapes(), range: rangeOf(new SourceText(SHAPES), 'return'), severity: 'error', message: "Type 'string' is not assignable to type 'number'.", source: 'ts', code: '2322' },
      { file: shapes(), range: rangeOf(new SourceText(SHAPES), 'area'), severity: 'hint', message: 'unused' },
    ];
    const result = await replaceSymbolBodyTool.run({ file_path: 'src/shapes.ts', name_path: 'Rectangle.area', body: "return 'big';" }, ctx);
    assert.equal(readFileSync(shapes(), 'utf8'), SHAPES.replace('return 2 * 3;', "return 'big';"));
    assert.deepEqual(result.change, { path: shapes(), before: SHAPES, after: readFileSync(shapes(), 'utf8') }, 'the front ends can show the diff afterwards');
    assert.match(result.summary, /^✓ Replaced the body of Rectangle\.area in src\/shapes\.ts \(\+1 −1\), 1 error after$/);
    assert.match(result.output, /-    return 2 \* 3;\n\+    return 'big';/);
    assert.match(result.output, /1 error after the edit \(fix them\):\nsrc\/shapes\.ts:4:5: Type 'string' is not assignable to type 'number'\. \[ts 2322\]$/);
  });

  it('never edits a file with unsaved changes in the editor', async () => {
    editor.dirty.add(shapes());
    await assert.rejects(replaceSymbolBodyTool.run({ file_path: 'src/shapes.ts', name_path: 'area', body: 'return 1;' }, ctx), /unsaved changes/);
    assert.equal(readFileSync(shapes(), 'utf8'), SHAPES);
  });

  it('rename_symbol refuses a bad identifier before asking the server, and an edit reaching outside the workspace', async () => {
    await assert.rejects(renameSymbolTool.run({ file_path: 'src/shapes.ts', name_path: 'totalArea', new_name: 'total area' }, ctx), /whitespace/);
    editor.renameResult = [
      { file: shapes(), edits: [{ range: rangeOf(new SourceText(SHAPES), 'totalArea'), newText: 'sumOfAreas' }] },
      { file: join(dir, '..', 'other', 'x.ts'), edits: [{ range: rangeOf(new SourceText(SHAPES), 'totalArea'), newText: 'sumOfAreas' }] },
    ];
    await assert.rejects(
      renameSymbolTool.run({ file_path: 'src/shapes.ts', name_path: 'totalArea', new_name: 'sumOfAreas' }, ctx),
      (e: ToolError) => e.kind === 'permission' && /outside the workspace/.test(e.message),
    );
    assert.equal(readFileSync(shapes(), 'utf8'), SHAPES, 'nothing changed');
  });

  it('rename_symbol applies the provider\'s edits and names the places the old name still appears', async () => {
    writeFileSync(join(dir, 'README.md'), 'Call totalArea() for the sum.\n');
    editor.renameResult = [{ file: shapes(), edits: [{ range: rangeOf(new SourceText(SHAPES), 'totalArea'), newText: 'sumOfAreas' }] }];
    const result = await renameSymbolTool.run({ file_path: 'src/shapes.ts', name_path: 'totalArea', new_name: 'sumOfAreas' }, ctx);
    assert.equal(readFileSync(shapes(), 'utf8'), SHAPES.replace('totalArea', 'sumOfAreas'));
    assert.equal(result.summary, '✓ Renamed totalArea to sumOfAreas: 1 edit in 1 file');
    assert.match(result.output, /^Renamed totalArea to sumOfAreas: 1 edit in 1 file, saved:\nsrc\/shapes\.ts: 1 \(line 8\)\n\nNo errors in src\/shapes\.ts after the edit\.\n\ntotalArea still appears as a word in 1 place: README\.md:1\./);
  });

  it('an unknown name path in a file is refused with the symbols it has', async () => {
    await assert.rejects(replaceSymbolBodyTool.run({ file_path: 'src/shapes.ts', name_path: 'Circle', body: 'x' }, ctx), /No symbol Circle in src\/shapes\.ts\. Its symbols: Rectangle, Rectangle\.area, totalArea\./);
  });
});
