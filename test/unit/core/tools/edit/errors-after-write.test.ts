import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileDiagnostic, SymbolPort, WriteCheck } from '../../../../../src/core/symbol-port';
import { FileTimeTracker } from '../../../../../src/core/tools/file-time-tracker';
import { fileTools } from '../../../../../src/core/tools/file-tools';
import { readFileTool } from '../../../../../src/core/tools/read-file';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import type { ToolResult } from '../../../../../src/core/tools/tool';
import { editorHostPorts } from '../../../../helpers/editor-ports';
import { toolContext } from '../../../../helpers/tool-context';

/**
 * edit_file and write_file in an editor host: the file's error diagnostics after the write close the
 * result, as after the symbol tools' edits. The editor is a stand-in that "checks" what is on disk
 * when asked (the real one is tested inside VS Code: test/integration/symbol-tools.test.ts).
 */
describe('edit_file and write_file report the errors the editor finds after the write', () => {
  let root: string;
  let files: FileTimeTracker;
  let watched: string[];
  let disposed: number;
  /** Each `: number = "…"` line on disk is a type error; `plain` files are checked by no language. */
  let check: (file: string) => Promise<FileDiagnostic[] | undefined>;
  const registry = new ToolRegistry().register(readFileTool);
  for (const tool of fileTools()) registry.register(tool);

  const editor = (): SymbolPort => ({
    ...editorHostPorts().symbols!,
    watchWrite: (file): WriteCheck => {
      watched.push(readFileSyncOrEmpty(file));
      return { diagnosticsAfter: () => check(file), dispose: () => void disposed++ };
    },
  });
  const call = (name: string, args: unknown, host = true): Promise<ToolResult> =>
    registry.execute({ id: 'c', name, arguments: JSON.stringify(args) }, toolContext({ workspaceRoot: root, files, ...(host ? { host: { symbols: editor() } } : {}) }));

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-write-errors-'));
    files = new FileTimeTracker();
    watched = [];
    disposed = 0;
    check = async (file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/: number = "/.test(line) ? [error(file, i, "Type 'string' is not assignable to type 'number'.")] : []));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('edit_file: an edit that breaks the types ends with the error, its line and code; the card counts it', async () => {
    writeFileSync(join(root, 'a.ts'), 'export const a: number = 1;\n');
    await call('read_file', { file_path: 'a.ts' });
    const r = await call('edit_file', { file_path: 'a.ts', old_content: '= 1;', new_content: '= "one";' });
    assert.equal(r.ok, true, r.output);
    assert.deepEqual(watched, ['export const a: number = 1;\n'], 'watched before the write');
    assert.match(r.output, /\n\n1 error after the edit \(fix them\):\na\.ts:1:14: Type 'string' is not assignable to type 'number'\. \[ts 2322\]$/);
    assert.equal(r.summary, '✓ Edited a.ts (+1 −1) · 1 error');
    assert.equal(disposed, 1);
  });

  it('write_file: a clean new file says so; a file no language checks adds nothing', async () => {
    const clean = await call('write_file', { file_path: 'b.ts', content: 'export const b = 2;\n' });
    assert.match(clean.output, /^Created b\.ts \(1 line, 20 bytes\)\.\n\nNo errors in b\.ts after the edit\.$/);
    assert.equal(clean.summary, '✓ Created b.ts (1 line)');
    check = async () => undefined;
    const plain = await call('write_file', { file_path: 'notes.txt', content: 'x: number = "y"\n' });
    assert.equal(plain.output, 'Created notes.txt (1 line, 16 bytes).');
    assert.equal(disposed, 2);
  });

  it('a check that fails, or no editor at all, leaves the edit done and the result without a report', async () => {
    check = () => Promise.reject(new Error('the language server crashed'));
    const failed = await call('write_file', { file_path: 'c.ts', content: 'export const c: number = "c";\n' });
    assert.equal(failed.ok, true);
    assert.equal(failed.output, 'Created c.ts (1 line, 30 bytes).');
    const cli = await call('write_file', { file_path: 'd.ts', content: 'export const d: number = "d";\n' }, false);
    assert.equal(cli.output, 'Created d.ts (1 line, 30 bytes).');
    assert.equal(readFileSync(join(root, 'c.ts'), 'utf8'), 'export const c: number = "c";\n');
  });
});

function error(file: string, line: number, message: string): FileDiagnostic {
  return { file, range: { start: { line, character: 13 }, end: { line, character: 14 } }, severity: 'error', message, source: 'ts', code: '2322' };
}

function readFileSyncOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
