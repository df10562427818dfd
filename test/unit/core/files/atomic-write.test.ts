import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tempFileWriter, writeFileAtomic } from '../../../../src/core/files/atomic-write';

describe('writeFileAtomic', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'opendev-atomic-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('replaces a file whole, with exactly the mode asked for, and leaves no temp file', async () => {
    const file = join(dir, 'settings.json');
    writeFileSync(file, 'old');
    await writeFileAtomic(file, '{"new":true}\n', { mode: 0o600 });
    assert.equal(readFileSync(file, 'utf8'), '{"new":true}\n');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(dir), ['settings.json']);
  });

  it('exclusive: refuses a target that exists, keeps it unchanged, and removes its temp file', async () => {
    const file = join(dir, 'taken');
    writeFileSync(file, 'mine');
    await assert.rejects(writeFileAtomic(file, 'theirs', { exclusive: true }), { code: 'EEXIST' });
    assert.equal(readFileSync(file, 'utf8'), 'mine');
    assert.deepEqual(readdirSync(dir), ['taken']);
  });

  it('names the writer of a temp file a killed process left (its own names and the session store\'s older ones)', () => {
    assert.equal(tempFileWriter('.a.json.opendev-4242-0a1b2c3d.tmp'), 4242);
    assert.equal(tempFileWriter('abc.json.999999999.deadbeef.tmp'), 999999999);
    assert.equal(tempFileWriter('abc.json'), undefined);
    assert.equal(tempFileWriter('notes.tmp'), undefined);
  });
});
