import * as assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { findReferencingSymbolsTool } from '../../src/core/tools/find-referencing-symbols';
import { findSymbolTool } from '../../src/core/tools/find-symbol';
import { insertAfterSymbolTool } from '../../src/core/tools/insert-at-symbol';
import { notebookEditTool } from '../../src/core/tools/notebook-edit';
import { renameSymbolTool } from '../../src/core/tools/rename-symbol';
import { replaceSymbolBodyTool } from '../../src/core/tools/replace-symbol-body';
import type { ToolExecutionContext } from '../../src/core/tools/tool';
import type { OpenDevApi } from '../../src/vscode/opendev-api';
import { vscodeNotebookPort } from '../../src/vscode/notebook-port';
import { vscodeSymbolPort } from '../../src/vscode/symbol-port';
import { allToolResults } from '../fixtures/fake-provider';
import { toolContext } from '../helpers/tool-context';
import { fakeProviderSuite, until } from './support';

/**
 * The symbol tools and notebook_edit on VS Code's own providers: the TypeScript language features
 * built into VS Code answer for test/fixtures/workspace/symbols (a small project with its own
 * tsconfig), the built-in ipynb serializer for its notebook. Each test works on a fresh copy.
 */
describe('symbol tools on VS Code providers', function () {
  this.timeout(120_000);
  let root: string;
  let run: string;
  let runs = 0;
  const ports = { symbols: vscodeSymbolPort(), notebooks: vscodeNotebookPort() };
  const ctx = (): ToolExecutionContext => toolContext({ workspaceRoot: root, host: ports });
  const file = (name: string) => join(run, name);
  const rel = (name: string) => `${run.slice(root.length + 1)}/${name}`;
  const read = (name: string) => readFileSync(file(name), 'utf8');
  /** One-based line of the first line holding `text` in the fixture copy. */
  const lineOf = (name: string, text: string) => read(name).split('\n').findIndex((l) => l.includes(text)) + 1;

  before(() => {
    root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  });

  beforeEach(async () => {
    run = join(root, `symbols-run-${++runs}`);
    cpSync(join(root, 'symbols'), run, { recursive: true });
    await typescriptReady(file('shapes.ts'));
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(run, { recursive: true, force: true });
  });

  it('find_symbol matches Class.method exactly, a bare method in every class, and wildcards', async () => {
    const exact = await findSymbolTool.run({ name_path: 'Rectangle.area', path: run }, ctx());
    const areaLine = lineOf('shapes.ts', '  area(): number {');
    assert.match(exact.output, new RegExp(`^1 symbol match Rectangle\\.area:\\n\\n${rel('shapes.ts')}:${areaLine}:3 method Rectangle\\.area\\n`));
    assert.match(exact.output, /return this\.width \* this\.height;/, 'with a preview of the body');

    const suffix = await findSymbolTool.run({ name_path: 'area', path: run }, ctx());
    assert.match(suffix.summary, /^3 symbols match area: Shape\.area, Rectangle\.area, Circle\.area$/);

    const wildcard = await findSymbolTool.run({ name_path: '*Area', path: run }, ctx());
    assert.match(wildcard.output, /:\d+:17 function totalArea\n {4}export function totalArea\(shapes: readonly Shape\[\]\): number \{/);
    const prefix = await findSymbolTool.run({ name_path: 'Rect*', path: run }, ctx());
    assert.match(prefix.summary, /^1 symbol match Rect\*: Rectangle$/);
  });

  it('find_referencing_symbols groups the references by file, each with the symbol it is in', async () => {
    const result = await findReferencingSymbolsTool.run({ name_path: 'Circle', file_path: file('shapes.ts') }, ctx());
    assert.match(result.summary, /^3 references to Circle in 2 files/);
    const unit = lineOf('shapes.ts', 'unitCircle');
    const imported = lineOf('use-shapes.ts', 'import');
    const created = lineOf('use-shapes.ts', 'new Circle');
    assert.ok(result.output.includes(`${rel('shapes.ts')} (1)\n  ${unit}:`), result.output);
    assert.match(result.output, new RegExp(`${unit}:\\d+ in unitCircle: export const unitCircle = new Circle\\(1\\);`));
    assert.ok(result.output.includes(`${rel('use-shapes.ts')} (2)\n  ${imported}:`), result.output);
    assert.match(result.output, new RegExp(`${imported}:\\d+ in \\(top level\\): import \\{ Circle,`));
    assert.match(result.output, new RegExp(`${created}:\\d+ in gallery: return \\[new Rectangle\\(2, 3\\), new Circle\\(1\\)\\];`));
  });

  it('rename_symbol renames across both files, saves them, and reports no errors', async () => {
    const result = await renameSymbolTool.run({ file_path: rel('shapes.ts'), name_path: 'totalArea', new_name: 'sumOfAreas' }, ctx());
    assert.match(result.summary, /^✓ Renamed totalArea to sumOfAreas: 3 edits in 2 files$/);
    for (const name of ['shapes.ts', 'use-shapes.ts']) {
      assert.ok(read(name).includes('sumOfAreas') && !read(name).includes('totalArea'), `${name} on disk is renamed`);
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file(name));
      assert.equal(doc?.isDirty, false, `${name} is saved`);
    }
    assert.match(result.output, /No errors in .*shapes\.ts, .*use-shapes\.ts after the edit\./);
    // The workspace's untouched template copy still says totalArea, and the result says where.
    assert.match(result.output, /totalArea still appears as a word in \d+ places: symbols\/shapes\.ts:\d+/);
    const leftOver = result.output.slice(result.output.indexOf('still appears'));
    assert.ok(!leftOver.includes(run.slice(root.length + 1)), `nothing left in the renamed copy: ${leftOver}`);
    assert.equal(
      vscode.languages.getDiagnostics(vscode.Uri.file(file('use-shapes.ts'))).filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length,
      0,
    );

    const bad = await renameSymbolTool.run({ file_path: rel('shapes.ts'), name_path: 'sumOfAreas', new_name: 'class' }, ctx()).catch((e: Error) => e);
    assert.match(String(bad), /reserved word/);
  });

  it('replace_symbol_body keeps the doc comment, decorator and signature', async () => {
    const result = await replaceSymbolBodyTool.run({ file_path: rel('shapes.ts'), name_path: 'Rectangle.area', body: 'const product = this.height * this.width;\nreturn product;' }, ctx());
    assert.equal(result.ok, true);
    assert.ok(
      read('shapes.ts').includes('  /** Width times height. */\n  @logged\n  area(): number {\n    const product = this.height * this.width;\n    return product;\n  }\n'),
      read('shapes.ts'),
    );
    assert.match(result.output, /No errors in .*shapes\.ts after the edit\./);
  });

  it('insert_after_symbol indents the new method like its neighbour, blank lines around it', async () => {
    const result = await insertAfterSymbolTool.run(
      { file_path: rel('shapes.ts'), name_path: 'Rectangle.area', content: 'diagonal(): number {\n  return Math.hypot(this.width, this.height);\n}' },
      ctx(),
    );
    assert.equal(result.ok, true);
    assert.ok(
      read('shapes.ts').includes('    return this.width * this.height;\n  }\n\n  diagonal(): number {\n    return Math.hypot(this.width, this.height);\n  }\n\n  perimeter(): number {'),
      read('shapes.ts'),
    );
    const found = await findSymbolTool.run({ name_path: 'Rectangle.diagonal', path: run }, ctx());
    assert.match(found.summary, /^1 symbol match Rectangle\.diagonal/, 'the language server sees the new method');
  });

  it('reports the type error an edit introduces in the tool result', async () => {
    const result = await replaceSymbolBodyTool.run({ file_path: rel('shapes.ts'), name_path: 'Circle.area', body: "return 'round';" }, ctx());
    assert.equal(result.ok, true, 'the edit itself was made');
    assert.match(result.summary, /, 1 error after$/);
    const line = lineOf('shapes.ts', "return 'round';");
    assert.match(result.output, new RegExp(`1 error after the edit \\(fix them\\):\\n${rel('shapes.ts')}:${line}:\\d+: Type 'string' is not assignable to type 'number'\\. \\[ts 2322\\]`));
  });

  it('notebook_edit inserts, replaces and deletes cells through the notebook API, keeping other outputs', async () => {
    const nb = rel('analysis.ipynb');
    const inserted = await notebookEditTool.run({ file_path: nb, action: 'insert', cell_index: 1, source: 'x = 41\nprint(x + 1)' }, ctx());
    assert.equal(inserted.summary, `✓ Inserted code cell 1 of ${nb}`);
    let saved = JSON.parse(read('analysis.ipynb'));
    assert.deepEqual(saved.cells.map((c: { cell_type: string }) => c.cell_type), ['markdown', 'code', 'code']);
    assert.equal([saved.cells[1].source].flat().join(''), 'x = 41\nprint(x + 1)');
    assert.equal([saved.cells[2].outputs[0].text].flat().join(''), '2\n', "the other cell's output is kept");

    await notebookEditTool.run({ file_path: nb, cell_index: 0, source: '# Results' }, ctx());
    await notebookEditTool.run({ file_path: nb, action: 'delete', cell_index: 1 }, ctx());
    saved = JSON.parse(read('analysis.ipynb'));
    assert.deepEqual(saved.cells.map((c: { cell_type: string; source: string[] | string }) => `${c.cell_type}:${[c.source].flat().join('')}`), ['markdown:# Results', 'code:print(1 + 1)']);

    await assert.rejects(notebookEditTool.run({ file_path: nb, cell_index: 5, source: 'x' }, ctx()), /out of range/);
  });

  describe('through the agent', () => {
    const suite = fakeProviderSuite({ approvalLevel: 'auto' });
    const { fake } = suite;
    let api: OpenDevApi;
    before(() => (api = suite.api));

    it('the model calls find_symbol and reads the match; the editor tools are in its schema', async () => {
      fake.enqueue(
        { toolCalls: [{ id: 'call_find', name: 'find_symbol', arguments: { name_path: 'Rectangle.area', path: run.slice(root.length + 1) } }] },
        { text: 'Rectangle.area multiplies width by height.' },
      );
      assert.equal((await api.send('where is Rectangle.area?'))?.status, 'completed');
      const tools = (fake.requests[0]!.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
      for (const name of ['find_symbol', 'find_referencing_symbols', 'rename_symbol', 'replace_symbol_body', 'insert_before_symbol', 'insert_after_symbol', 'notebook_edit']) {
        assert.ok(tools.includes(name), `${name} is offered in VS Code`);
      }
      const [found] = allToolResults(fake.requests.at(-1)!);
      assert.match(found!.content, new RegExp(`${rel('shapes.ts')}:\\d+:3 method Rectangle\\.area`));
    });

    it('edit_file that breaks the types: its result lists the TypeScript error; the user’s editor keeps the focus', async () => {
      const mine = await vscode.window.showTextDocument(vscode.Uri.file(join(root, 'math.ts')));
      fake.enqueue(
        { toolCalls: [{ name: 'read_file', arguments: { file_path: rel('shapes.ts') } }] },
        { toolCalls: [{ name: 'edit_file', arguments: { file_path: rel('shapes.ts'), old_content: 'return this.width * this.height;', new_content: 'return `${this.width} by ${this.height}`;' } }] },
        { text: 'area() now describes the size.' },
      );
      assert.equal((await api.send('make Rectangle.area describe the size'))?.status, 'completed');
      const edited = allToolResults(fake.requests.at(-1)!).at(-1)!.content;
      const line = lineOf('shapes.ts', 'return `${this.width} by ${this.height}`;');
      assert.match(edited, new RegExp(`\\n\\n1 error after the edit \\(fix them\\):\\n${rel('shapes.ts')}:${line}:\\d+: Type 'string' is not assignable to type 'number'\\. \\[ts 2322\\]$`), edited);
      const card = api.transcript().find((e) => e.kind === 'tool' && e.name === 'edit_file');
      assert.match(card?.kind === 'tool' ? card.summary ?? '' : '', /^✓ Edited .*shapes\.ts \(\+1 −1\) · 1 error$/);
      assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), mine.document.uri.toString(), 'the edited file was checked in a background tab');
    });

    it('a rename by the agent is one step that Undo Last Step takes back in both files', async () => {
      const before = { shapes: read('shapes.ts'), use: read('use-shapes.ts') };
      fake.enqueue(
        { toolCalls: [{ id: 'call_rename', name: 'rename_symbol', arguments: { file_path: rel('shapes.ts'), name_path: 'totalArea', new_name: 'sumOfAreas' } }] },
        { text: 'Renamed.' },
      );
      assert.equal((await api.send('rename totalArea to sumOfAreas'))?.status, 'completed');
      const [renamed] = allToolResults(fake.requests.at(-1)!);
      assert.match(renamed!.content, /Renamed totalArea to sumOfAreas: 3 edits in 2 files/);
      assert.ok(read('use-shapes.ts').includes('sumOfAreas'));

      await vscode.commands.executeCommand('opendev.undo');
      await until(() => read('shapes.ts') === before.shapes && read('use-shapes.ts') === before.use, 'the undo to restore both files');
      assert.ok(existsSync(file('use-shapes.ts')));
    });
  });
});

/**
 * Waits until TypeScript answers for the copy with its whole project: while a project loads,
 * VS Code's TypeScript answers from a partial server that knows only the open file, so the
 * references of `Circle` reach use-shapes.ts only once the project is in.
 */
async function typescriptReady(path: string): Promise<void> {
  const uri = vscode.Uri.file(path);
  const doc = await vscode.workspace.openTextDocument(uri);
  const at = doc.positionAt(doc.getText().indexOf('class Circle') + 'class '.length);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const refs = await vscode.commands.executeCommand<vscode.Location[] | undefined>('vscode.executeReferenceProvider', uri, at);
    if (refs?.some((r) => r.uri.fsPath.endsWith('use-shapes.ts'))) return;
    if (Date.now() > deadline) throw new Error(`TypeScript did not load the project of ${path} within 60 s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
