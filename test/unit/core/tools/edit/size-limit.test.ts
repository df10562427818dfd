import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { classifyToolFailure } from '../../../../../src/core/context/error-recovery';
import { previewEdit } from '../../../../../src/core/tools/edit-file';
import { formatBytes, MAX_EDIT_BYTES } from '../../../../../src/core/tools/edit/size-limit';
import { FileTimeTracker } from '../../../../../src/core/tools/file-time-tracker';
import { fileTools } from '../../../../../src/core/tools/file-tools';
import { readFileTool } from '../../../../../src/core/tools/read-file';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import type { ToolResult } from '../../../../../src/core/tools/tool';
import { toolContext } from '../../../../helpers/tool-context';

describe('edit_file size limit', () => {
  let root: string;
  const registry = new ToolRegistry().register(readFileTool);
  for (const tool of fileTools()) registry.register(tool);
  const edit = (args: object): Promise<ToolResult> =>
    registry.execute({ id: 'c', name: 'edit_file', arguments: JSON.stringify(args) }, toolContext({ workspaceRoot: root, files: new FileTimeTracker() }));

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-edit-size-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('refuses a file over the limit before reading it, with a typed error that names what to use instead', async () => {
    const file = join(root, 'dump.sql');
    writeFileSync(file, 'INSERT INTO t VALUES (1);\n');
    truncateSync(file, 200 * 1024 * 1024); // sparse: 200 MB on paper, nothing to read
    const before = statSync(file);
    // Not even read first: reading it would be no help, so the size answers before the read check.
    const r = await edit({ file_path: 'dump.sql', old_content: 'VALUES (1)', new_content: 'VALUES (2)' });
    assert.equal(r.ok, false);
    assert.equal(r.errorKind, 'too_large');
    assert.match(r.output, /^Error \(too_large\): dump\.sql is 200 MB, over the 10 MB edit_file works on .* so it was left unchanged\. Change it with run_command instead: .*`sed -n 'FIRST,LASTp' dump\.sql`.*`sed -i`/);
    assert.equal(classifyToolFailure(r), 'generic', 'its text is not mistaken for another failure class');
    const after = statSync(file);
    assert.equal(after.size, before.size);
    assert.equal(after.mtimeMs, before.mtimeMs);
    assert.equal(await previewEdit(root, { file_path: 'dump.sql', old_content: 'VALUES (1)', new_content: 'VALUES (2)' }), undefined, 'no approval preview reads it either');
  });

  it('still edits a file of exactly the limit', async () => {
    const line = 'x'.repeat(1023) + '\n';
    const content = `first\n${line.repeat(MAX_EDIT_BYTES / 1024)}`.slice(0, MAX_EDIT_BYTES);
    writeFileSync(join(root, 'big.txt'), content);
    assert.equal(statSync(join(root, 'big.txt')).size, MAX_EDIT_BYTES);
    const ctx = toolContext({ workspaceRoot: root, files: new FileTimeTracker() });
    await registry.execute({ id: 'r', name: 'read_file', arguments: JSON.stringify({ file_path: 'big.txt', max_lines: 1 }) }, ctx);
    const r = await registry.execute({ id: 'e', name: 'edit_file', arguments: JSON.stringify({ file_path: 'big.txt', old_content: 'first\n', new_content: 'FIRST\n' }) }, ctx);
    assert.equal(r.ok, true, r.output);
    assert.equal(readFileSync(join(root, 'big.txt'), 'utf8').slice(0, 8), 'FIRST\nxx');
  });

  it('formats sizes as the error shows them', () => {
    assert.equal(formatBytes(MAX_EDIT_BYTES), '10 MB');
    assert.equal(formatBytes(15.25 * 1024 * 1024), '15.3 MB');
    assert.equal(formatBytes(2048), '2 KB');
  });
});
