import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileDiagnostic } from '../../../../../src/core/symbol-port';
import { previewEdit } from '../../../../../src/core/tools/edit-file';
import { PARSE_CHECK_MAX_CHARS, parseRegression } from '../../../../../src/core/tools/edit/parse-check';
import { FileTimeTracker } from '../../../../../src/core/tools/file-time-tracker';
import { fileTools } from '../../../../../src/core/tools/file-tools';
import { readFileTool } from '../../../../../src/core/tools/read-file';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import type { EditReview, ToolResult } from '../../../../../src/core/tools/tool';
import { editorHostPorts } from '../../../../helpers/editor-ports';
import { toolContext } from '../../../../helpers/tool-context';

describe('a parse that an edit newly breaks', () => {
  describe('parseRegression', () => {
    it('names the language and the line when a clean file stops parsing (an ERROR node or a missing token)', async () => {
      const clean = 'export function add(a: number, b: number) {\n  return a + b;\n}\n';
      assert.deepEqual(await parseRegression('/w/add.ts', clean, 'export function add(a: number, b: number) {\\n  return a - b;\\n}\n'), { language: 'TypeScript', lines: [1] });
      assert.deepEqual(await parseRegression('/w/add.ts', clean, 'export function add(a: number, b: number) {\n  return a + b;\n'), { language: 'TypeScript', lines: [2] });
      assert.deepEqual(await parseRegression('/w/m.py', 'def f():\n    return 1\n', 'def f():\nreturn 1\n'), { language: 'Python', lines: [1] });
    });

    it('says nothing when the file parses after the edit, or already did not before it', async () => {
      assert.equal(await parseRegression('/w/a.ts', 'const a = 1;\n', 'const a = 2;\n'), undefined);
      assert.equal(await parseRegression('/w/a.ts', 'const a = ;\n', 'const a = ;\nconst b = ;\n'), undefined);
      assert.equal(await parseRegression('/w/p.html', '<p>hi</p>\n', '<p>hi</p>\n<script></script>\n'), undefined, 'an empty <script> is valid');
      assert.equal(await parseRegression('/w/e.ts', '', 'export const e = 1;\n'), undefined);
    });

    it('checks only languages ast-grep parses, and only texts up to the size limit', async () => {
      assert.equal(await parseRegression('/w/notes.txt', 'a\n', 'function (\n'), undefined);
      assert.equal(await parseRegression('/w/data.json', '{}\n', '{\n'), undefined);
      const big = `${'const x = 1;\n'.repeat(Math.ceil(PARSE_CHECK_MAX_CHARS / 13))}`;
      assert.equal(await parseRegression('/w/big.ts', big, `${big}function (\n`), undefined);
    });
  });

  describe('through edit_file', () => {
    let root: string;
    let files: FileTimeTracker;
    const registry = new ToolRegistry().register(readFileTool);
    for (const tool of fileTools()) registry.register(tool);
    const call = (name: string, args: unknown, extra: { review?: EditReview; editor?: boolean } = {}): Promise<ToolResult> =>
      registry.execute(
        { id: 'c', name, arguments: JSON.stringify(args) },
        toolContext({ workspaceRoot: root, files, ...(extra.review ? { review: extra.review } : {}), ...(extra.editor ? { host: { symbols: editorWithOneError() } } : {}) }),
      );
    const prepare = async (name: string, content: string) => {
      writeFileSync(join(root, name), content);
      assert.equal((await call('read_file', { file_path: name })).ok, true);
    };

    beforeEach(() => {
      root = mkdtempSync(join(tmpdir(), 'opendev-parse-check-'));
      files = new FileTimeTracker();
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    it('CLI: writes the edit, warns the model after the plan line, and marks the card', async () => {
      await prepare('f.ts', 'export function f() {\n  return 1;\n}\n');
      const r = await call('edit_file', { file_path: 'f.ts', old_content: '  return 1;\n}', new_content: '  if (ready) {\n    return 1;\n}' });
      assert.equal(r.ok, true, r.output);
      assert.equal(readFileSync(join(root, 'f.ts'), 'utf8'), 'export function f() {\n  if (ready) {\n    return 1;\n}\n');
      assert.match(
        r.output,
        /^Edited f\.ts: 1 replacement at line 2\.\n\nWarning: f\.ts parsed as valid TypeScript before this edit and no longer does: syntax problem at line 4\. The edit was written as given\./,
      );
      assert.equal(r.summary, '✓ Edited f.ts (+2 −1) · TypeScript syntax broken');
    });

    it('adds nothing to an edit that keeps the file valid', async () => {
      await prepare('g.py', 'def g():\n    return 1\n');
      const r = await call('edit_file', { file_path: 'g.py', old_content: 'return 1', new_content: 'return 2' });
      assert.equal(r.ok, true, r.output);
      assert.doesNotMatch(r.output, /Warning/);
      assert.equal(r.summary, '✓ Edited g.py (+1 −1)');
    });

    it('VS Code: after a hunk-by-hunk review, checks what was written (one accepted hunk of two), beside the editor\'s errors', async () => {
      const source = 'export function f(x: number) {\n  const a = x;\n  const b = 2;\n  const c = 3;\n  return a;\n}\n';
      await prepare('h.ts', source);
      const args = { file_path: 'h.ts', old_content: '  const a = x;\n  const b = 2;\n  const c = 3;\n  return a;', new_content: '  if (x > 0) {\n  const b = 2;\n  const c = 3;\n  }\n  return x;' };
      const preview = await previewEdit(root, args);
      assert.ok(preview);
      // As the approval gate hands it over: the proposal the user saw and the hunks they accepted.
      const review: EditReview = { before: preview.change.before, after: preview.change.after, hunks: preview.change.hunks, acceptedHunks: [0] };
      const r = await call('edit_file', args, { review, editor: true });
      assert.equal(r.ok, true, r.output);
      assert.equal(readFileSync(join(root, 'h.ts'), 'utf8'), 'export function f(x: number) {\n  if (x > 0) {\n  const b = 2;\n  const c = 3;\n  return a;\n}\n');
      assert.match(r.output, /Warning: h\.ts parsed as valid TypeScript before this edit and no longer does: syntax problem at line 6\./);
      assert.match(r.output, /1 error after the edit/);
      assert.equal(r.summary, '✓ Edited h.ts (+1 −1; rejected 1 of 2 hunks) · 1 error · TypeScript syntax broken');
    });
  });
});

/** An editor that reports one error for whatever was written (its own check is tested in errors-after-write.test.ts). */
function editorWithOneError() {
  const diagnostic = (file: string): FileDiagnostic => ({ file, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, severity: 'error', message: "'}' expected.", source: 'ts', code: '1005' });
  return { ...editorHostPorts().symbols!, watchWrite: (file: string) => ({ diagnosticsAfter: async () => [diagnostic(file)], dispose: () => {} }) };
}
