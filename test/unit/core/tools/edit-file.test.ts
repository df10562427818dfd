import * as assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { previewEdit } from '../../../../src/core/tools/edit-file';
import { fileToolWorkspace } from '../../../helpers/file-tool-workspace';

describe('edit_file', () => {
  const ws = fileToolWorkspace('opendev-edit-');
  const { call, bytes, text, prepare } = ws;
  const read = (file_path: string, extra: object = {}) => call('read_file', { file_path, ...extra });
  const edit = (args: object) => call('edit_file', args);

  it('replaces the text and answers with a unified diff and a "+n −m" summary', async () => {
    await prepare('a.ts', 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
    const r = await edit({ file_path: 'a.ts', old_content: 'const b = 2;', new_content: 'const b = 20;\nconst b2 = 21;' });
    assert.equal(r.ok, true, r.output);
    assert.equal(text('a.ts'), 'const a = 1;\nconst b = 20;\nconst b2 = 21;\nconst c = 3;\n');
    assert.equal(r.summary, '✓ Edited a.ts (+2 −1)');
    assert.match(r.output, /^Edited a\.ts: 1 replacement at line 2\./);
    assert.match(r.output, /--- a\/a\.ts\n\+\+\+ b\/a\.ts\n@@ -1,3 \+1,4 @@\n const a = 1;\n-const b = 2;\n\+const b = 20;\n\+const b2 = 21;\n const c = 3;/);
  });

  it('says when a fuzzy pass matched and new_content was re-indented to the file', async () => {
    await prepare('a.py', 'class A:\n    def run(self):\n        return 1\n');
    const r = await edit({ file_path: 'a.py', old_content: 'def run(self):\n    return 1', new_content: 'def run(self):\n    x = 2\n    return x' });
    assert.equal(r.ok, true, r.output);
    assert.equal(text('a.py'), 'class A:\n    def run(self):\n        x = 2\n        return x\n');
    assert.match(r.output, /matched by the line-trimmed pass, not exactly; new_content re-indented \+4 spaces/);
  });

  it('keeps CRLF line endings and the BOM', async () => {
    await prepare('win.cs', '\uFEFFusing System;\r\nclass A {\r\n}\r\n');
    const r = await edit({ file_path: 'win.cs', old_content: 'class A {\n}', new_content: 'class A {\n  int x;\n}' });
    assert.equal(r.ok, true, r.output);
    assert.equal(text('win.cs'), '\uFEFFusing System;\r\nclass A {\r\n  int x;\r\n}\r\n');
    assert.doesNotMatch(r.output, /\uFEFF|\r/);
  });

  it('leaves the file byte-identical when the edit cannot be applied', async () => {
    const original = Buffer.from('\uFEFFa\r\nb\nsame\r\nsame\n', 'utf8');
    await prepare('f.txt', original);
    for (const args of [
      { old_content: 'missing', new_content: 'x' },
      { old_content: 'same', new_content: 'x' },
      { old_content: '', new_content: 'x' },
      { old_content: 'a', new_content: 'a' },
    ]) {
      const r = await edit({ file_path: 'f.txt', ...args });
      assert.equal(r.ok, false);
      assert.deepEqual(bytes('f.txt'), original);
    }
    assert.deepEqual(readdirSync(ws.root), ['f.txt'], 'no temporary file is left behind');
  });

  it('refuses a non-unique match with the count and the line numbers', async () => {
    await prepare('d.ts', 'debug(1);\nok();\ndebug(1);\ndebug(1);\n');
    const r = await edit({ file_path: 'd.ts', old_content: 'debug(1);', new_content: 'log(1);' });
    assert.equal(r.errorKind, 'edit_mismatch');
    assert.match(r.output, /matches 3 places in d\.ts \(lines 1, 3, 4\).*replace_all: true/);
    const all = await edit({ file_path: 'd.ts', old_content: 'debug(1);', new_content: 'log(1);', replace_all: true });
    assert.equal(all.ok, true);
    assert.equal(text('d.ts'), 'log(1);\nok();\nlog(1);\nlog(1);\n');
    assert.match(all.output, /3 replacements at lines 1, 3, 4/);
  });

  it('refuses empty old_content on a file with content, but fills an empty file', async () => {
    await prepare('full.txt', 'keep me\n');
    const r = await edit({ file_path: 'full.txt', old_content: '', new_content: 'replaced' });
    assert.equal(r.ok, false);
    assert.match(r.output, /old_content is empty but full\.txt is not: edit_file never replaces a whole file/);
    assert.equal(text('full.txt'), 'keep me\n');
    await prepare('empty.txt', '');
    assert.equal((await edit({ file_path: 'empty.txt', old_content: '', new_content: 'hello\n' })).ok, true);
    assert.equal(text('empty.txt'), 'hello\n');
  });

  it('asks for a read first when the file was never read in this session', async () => {
    writeFileSync(join(ws.root, 'unread.ts'), 'x\n');
    const r = await edit({ file_path: 'unread.ts', old_content: 'x', new_content: 'y' });
    assert.equal(r.errorKind, 'edit_mismatch');
    assert.match(r.output, /has not been read.*read_file first/);
    assert.equal(text('unread.ts'), 'x\n');
  });

  it('refuses a stale read (changed on disk after the read) and works again after a new read', async () => {
    await prepare('s.ts', 'let v = 1;\n');
    const later = new Date(Date.now() + 10_000);
    utimesSync(join(ws.root, 's.ts'), later, later);
    const r = await edit({ file_path: 's.ts', old_content: 'let v = 1;', new_content: 'let v = 2;' });
    assert.equal(r.ok, false);
    assert.match(r.output, /changed on disk .* after you last read it\. Read it again first/);
    assert.equal(text('s.ts'), 'let v = 1;\n');
    await read('s.ts');
    assert.equal((await edit({ file_path: 's.ts', old_content: 'let v = 1;', new_content: 'let v = 2;' })).ok, true);
  });

  it('tolerates a change within 50 ms of the read, and counts a partial read', async () => {
    writeFileSync(join(ws.root, 'p.ts'), 'a\nb\nc\n');
    assert.equal((await read('p.ts', { offset: 3, max_lines: 1 })).ok, true);
    const seen = ws.files.lastSeen(join(ws.root, 'p.ts'))!;
    const soon = new Date(seen + 30);
    utimesSync(join(ws.root, 'p.ts'), soon, soon);
    assert.equal((await edit({ file_path: 'p.ts', old_content: 'a', new_content: 'A' })).ok, true);
  });

  it('counts its own write as a read: a second edit needs no new read_file', async () => {
    await prepare('twice.ts', 'one\ntwo\n');
    assert.equal((await edit({ file_path: 'twice.ts', old_content: 'one', new_content: '1' })).ok, true);
    assert.equal((await edit({ file_path: 'twice.ts', old_content: 'two', new_content: '2' })).ok, true);
    assert.equal(text('twice.ts'), '1\n2\n');
  });

  it('serializes concurrent edits of one file so none is lost', async () => {
    await prepare('c.ts', 'top = 0\nmiddle = keep\nbottom = 0\n');
    const [a, b] = await Promise.all([
      edit({ file_path: 'c.ts', old_content: 'top = 0', new_content: 'top = 1' }),
      edit({ file_path: 'c.ts', old_content: 'bottom = 0', new_content: 'bottom = 2' }),
    ]);
    assert.equal(a.ok && b.ok, true, `${a.output}\n${b.output}`);
    assert.equal(text('c.ts'), 'top = 1\nmiddle = keep\nbottom = 2\n');
  });

  it('lands twenty concurrent edits of one file', async () => {
    await prepare('many.ts', Array.from({ length: 20 }, (_, i) => `v${i} = 0`).join('\n') + '\n');
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => edit({ file_path: 'many.ts', old_content: `v${i} = 0`, new_content: `v${i} = ${i + 1}` })));
    assert.ok(results.every((r) => r.ok));
    assert.equal(text('many.ts'), Array.from({ length: 20 }, (_, i) => `v${i} = ${i + 1}`).join('\n') + '\n');
  });

  it('gives typed, actionable errors for bad paths', async () => {
    mkdirSync(join(ws.root, 'dir'));
    const outside = await edit({ file_path: '../elsewhere.ts', old_content: 'a', new_content: 'b' });
    assert.equal(outside.errorKind, 'permission');
    const missing = await edit({ file_path: 'nope.ts', old_content: 'a', new_content: 'b' });
    assert.equal(missing.errorKind, 'not_found');
    assert.match(missing.output, /nope\.ts does not exist.*write_file/);
    const dir = await edit({ file_path: 'dir', old_content: 'a', new_content: 'b' });
    assert.match(dir.output, /dir is a directory, not a file/);
  });

  it('refuses to write through a symbolic link that leads outside the workspace', async () => {
    const outsideDir = mkdtempSync(join(tmpdir(), 'opendev-outside-'));
    try {
      writeFileSync(join(outsideDir, 'secret.txt'), 'secret\n');
      symlinkSync(join(outsideDir, 'secret.txt'), join(ws.root, 'link.txt'));
      await read('link.txt');
      const r = await edit({ file_path: 'link.txt', old_content: 'secret', new_content: 'changed' });
      assert.equal(r.errorKind, 'permission');
      assert.equal(readFileSync(join(outsideDir, 'secret.txt'), 'utf8'), 'secret\n');
    } finally {
      rmSync(outsideDir, { recursive: true, force: true });
    }
  });

  it('refuses binary and non-UTF-8 files instead of corrupting them', async () => {
    await prepare('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const r = await edit({ file_path: 'latin1.txt', old_content: 'caf', new_content: 'tea' });
    assert.match(r.output, /not valid UTF-8/);
    assert.deepEqual(bytes('latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  });

  it('keeps the file mode', async () => {
    await prepare('run.sh', '#!/bin/sh\necho hi\n');
    chmodSync(join(ws.root, 'run.sh'), 0o755);
    assert.equal((await edit({ file_path: 'run.sh', old_content: 'echo hi', new_content: 'echo bye' })).ok, true);
    assert.equal(statSync(join(ws.root, 'run.sh')).mode & 0o777, 0o755);
  });

  it('previews the diff for an approval prompt without writing anything', async () => {
    writeFileSync(join(ws.root, 'p.ts'), 'a\nb\n');
    const preview = await previewEdit(ws.root, { file_path: 'p.ts', old_content: 'b', new_content: 'B' });
    assert.deepEqual(preview, {
      diff: '--- a/p.ts\n+++ b/p.ts\n@@ -1,2 +1,2 @@\n a\n-b\n+B',
      added: 1,
      removed: 1,
      change: { path: join(ws.root, 'p.ts'), before: 'a\nb\n', after: 'a\nB\n', hunks: [{ index: 0, beforeStart: 1, afterStart: 1, removed: ['b\n'], added: ['B\n'] }] },
    });
    assert.equal(text('p.ts'), 'a\nb\n');
    assert.equal(await previewEdit(ws.root, { file_path: 'p.ts', old_content: 'zzz', new_content: 'B' }), undefined);
    assert.equal(await previewEdit(ws.root, { file_path: 'p.ts' }), undefined);
  });

  it('names a missing argument and ignores extra ones', async () => {
    await prepare('a.ts', 'x\n');
    const r = await edit({ file_path: 'a.ts', old_content: 'x' });
    assert.equal(r.ok, false);
    assert.match(r.output, /new_content/);
    assert.equal((await edit({ file_path: 'a.ts', old_content: 'x', new_content: 'y', reason: 'because' })).ok, true);
  });
});
