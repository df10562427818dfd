import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileToolWorkspace } from '../../../helpers/file-tool-workspace';

describe('write_file', () => {
  const ws = fileToolWorkspace('opendev-write-');
  const { call } = ws;
  const write = (args: object) => call('write_file', args);


  it('creates a file, making parent folders with create_dirs, and says how many lines', async () => {
    const content = Array.from({ length: 12 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const r = await write({ file_path: 'src/a.ts', content, create_dirs: true });
    assert.equal(r.ok, true, r.output);
    assert.equal(r.summary, '✓ Created src/a.ts (12 lines)');
    assert.equal(readFileSync(join(ws.root, 'src/a.ts'), 'utf8'), content);
    assert.deepEqual(readdirSync(join(ws.root, 'src')), ['a.ts'], 'no temporary file is left behind');
  });

  it('only creates: an existing file is an error that points to edit_file, and stays as it was', async () => {
    writeFileSync(join(ws.root, 'a.ts'), 'original');
    const r = await write({ file_path: 'a.ts', content: 'new' });
    assert.equal(r.ok, false);
    assert.match(r.output, /a\.ts already exists.*edit_file/);
    assert.equal(readFileSync(join(ws.root, 'a.ts'), 'utf8'), 'original');
  });

  it('names the missing folder when create_dirs is not set, and creates nothing', async () => {
    const r = await write({ file_path: 'lib/deep/b.ts', content: 'x' });
    assert.equal(r.errorKind, 'not_found');
    assert.match(r.output, /The folder lib\/ does not exist\. .*create_dirs: true/);
    assert.equal(existsSync(join(ws.root, 'lib')), false);
  });

  it('stays inside the workspace, also through symbolic links', async () => {
    assert.equal((await write({ file_path: '../escape.ts', content: 'x' })).errorKind, 'permission');
    const outside = mkdtempSync(join(tmpdir(), 'opendev-out-'));
    try {
      symlinkSync(outside, join(ws.root, 'out'));
      const r = await write({ file_path: 'out/x.ts', content: 'x' });
      assert.equal(r.errorKind, 'permission');
      assert.deepEqual(readdirSync(outside), []);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('records the write, so the new file can be edited without reading it first', async () => {
    await write({ file_path: 'n.ts', content: 'let a = 1;\n' });
    const r = await call('edit_file', { file_path: 'n.ts', old_content: 'a = 1', new_content: 'a = 2' });
    assert.equal(r.ok, true, r.output);
  });

  it('lets exactly one of two concurrent writes of the same new file win', async () => {
    const results = await Promise.all([write({ file_path: 'race.ts', content: 'first' }), write({ file_path: 'race.ts', content: 'second' })]);
    assert.equal(results.filter((r) => r.ok).length, 1);
    assert.ok(['first', 'second'].includes(readFileSync(join(ws.root, 'race.ts'), 'utf8')));
  });

  it('refuses a folder as the target and names a missing content argument', async () => {
    assert.match((await write({ file_path: 'dir/', content: 'x' })).output, /names a folder/);
    assert.match((await write({ file_path: 'x.ts' })).output, /content/);
  });

  it('writes an empty file as 0 lines', async () => {
    assert.equal((await write({ file_path: 'empty.txt', content: '' })).summary, '✓ Created empty.txt (0 lines)');
  });
});
