import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { containedFiles } from '../../../../src/core/mentions/contained-files';

/** `@` completion lists what the editor's file search finds, which follows links: links out are not offered. */
describe('containedFiles (what @ completion may offer)', () => {
  let base: string;
  let savedHome: string | undefined;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'opendev-contained-'));
    savedHome = process.env.HOME;
    process.env.HOME = join(base, 'home');
  });
  afterEach(() => {
    process.env.HOME = savedHome;
    rmSync(base, { recursive: true, force: true });
  });

  it('drops files reached through links out of the workspace and secret locations; keeps the rest, in order', async () => {
    const home = join(base, 'home');
    const ws = join(base, 'repo');
    const outside = join(base, 'outside');
    for (const dir of [join(home, '.aws'), join(ws, 'src'), outside]) mkdirSync(dir, { recursive: true });
    writeFileSync(join(home, '.aws', 'credentials'), 'k');
    writeFileSync(join(outside, 'guide.md'), 'g');
    for (const f of ['README.md', 'src/a.ts', 'src/b.ts']) writeFileSync(join(ws, f), '');
    symlinkSync(join(home, '.aws'), join(ws, 'creds'));
    symlinkSync(outside, join(ws, 'docs'));
    symlinkSync(join(ws, 'src', 'a.ts'), join(ws, 'alias.ts'));
    // What findFiles reports for this tree (it follows links), plus a file that vanished meanwhile.
    const found = ['README.md', 'creds/credentials', 'docs/guide.md', 'src/a.ts', 'alias.ts', 'src/b.ts', 'gone.txt'].map((f) => join(ws, f));
    assert.deepEqual(await containedFiles(ws, found), ['README.md', 'src/a.ts', 'alias.ts', 'src/b.ts'].map((f) => join(ws, f)));
  });

  it('drops a secret location inside the workspace (a home folder opened as the workspace)', async () => {
    const home = join(base, 'home');
    mkdirSync(join(home, '.ssh'), { recursive: true });
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'k');
    writeFileSync(join(home, 'notes.md'), 'n');
    assert.deepEqual(await containedFiles(home, [join(home, '.ssh', 'id_rsa'), join(home, 'notes.md')]), [join(home, 'notes.md')]);
  });
});
