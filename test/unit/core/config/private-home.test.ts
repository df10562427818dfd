import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { tightenOpendevHome } from '../../../../src/core/config/private-home';

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** `<mode> <path>` of every folder and file under `root` (links not followed). */
function modes(root: string): string[] {
  const out: string[] = [];
  const visit = (path: string) => {
    const info = lstatSync(path);
    if (info.isSymbolicLink()) return;
    out.push(`${(info.mode & 0o777).toString(8)} ${relative(root, path) || '.'}`);
    if (info.isDirectory()) for (const name of readdirSync(path).sort()) visit(join(path, name));
  };
  visit(root);
  return out;
}

/** An older install: folders 0755, files 0644, a script 0755, a read-only git object 0444, links out. */
function oldHome(home: string, outside: string): void {
  mkdirSync(join(home, 'projects', 'p'), { recursive: true });
  mkdirSync(join(home, 'skills', 'deploy'), { recursive: true });
  mkdirSync(join(home, 'snapshot', 'p', 'objects', 'ab'), { recursive: true });
  writeFileSync(join(home, 'settings.json'), '{}\n');
  writeFileSync(join(home, 'projects', 'p', 's1.jsonl'), '{}\n');
  writeFileSync(join(home, 'skills', 'deploy', 'run.sh'), '#!/bin/sh\n');
  writeFileSync(join(home, 'snapshot', 'p', 'objects', 'ab', 'cdef'), 'blob');
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, 'shared.txt'), 'for everyone\n');
  symlinkSync(outside, join(home, 'linked-folder'));
  symlinkSync(join(outside, 'shared.txt'), join(home, 'linked-file'));
  for (const dir of [home, 'projects', 'projects/p', 'skills', 'skills/deploy', 'snapshot', 'snapshot/p', 'snapshot/p/objects', 'snapshot/p/objects/ab']) chmodSync(join(home, dir === home ? '' : dir), 0o755);
  chmodSync(join(home, 'settings.json'), 0o644);
  chmodSync(join(home, 'projects', 'p', 's1.jsonl'), 0o644);
  chmodSync(join(home, 'skills', 'deploy', 'run.sh'), 0o755);
  chmodSync(join(home, 'snapshot', 'p', 'objects', 'ab', 'cdef'), 0o444);
  chmodSync(outside, 0o755);
  chmodSync(join(outside, 'shared.txt'), 0o644);
}

describe('tightenOpendevHome: an older install is made private at start', () => {
  let root: string;
  let home: string;
  let outside: string;
  let umask: number;
  const undo: Array<() => void> = [];

  before(() => (umask = process.umask(0o022)));
  after(() => process.umask(umask));
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-tighten-'));
    home = join(root, 'home');
    outside = join(root, 'outside');
  });
  afterEach(() => {
    for (const fn of undo.splice(0)) fn();
    rmSync(root, { recursive: true, force: true });
  });

  it('creates a missing home 0700, without a note', async () => {
    assert.equal(await tightenOpendevHome(home), undefined);
    assert.equal(modeOf(home), '700');
  });

  it('closes every folder and file of an open home, keeps the owner’s bits, and never follows a link out', async () => {
    oldHome(home, outside);
    const note = await tightenOpendevHome(home);
    assert.equal(note, `${home} was open to other users; OpenDev made it private (folders 0700, files 0600; 13 changed).`);
    assert.deepEqual(modes(home), [
      '700 .',
      '700 projects',
      '700 projects/p',
      '600 projects/p/s1.jsonl',
      '600 settings.json',
      '700 skills',
      '700 skills/deploy',
      '700 skills/deploy/run.sh',
      '700 snapshot',
      '700 snapshot/p',
      '700 snapshot/p/objects',
      '700 snapshot/p/objects/ab',
      '400 snapshot/p/objects/ab/cdef',
    ]);
    assert.deepEqual(modes(outside), ['755 .', '644 shared.txt'], 'what the links point to is untouched');
    assert.equal(await tightenOpendevHome(home), undefined, 'the next start has nothing to say');
  });

  it('costs one look when the home is private already: what is inside is not walked', async () => {
    mkdirSync(home, { mode: 0o700 });
    writeFileSync(join(home, 'settings.json'), '{}\n', { mode: 0o644 });
    assert.equal(await tightenOpendevHome(home), undefined);
    assert.equal(modeOf(join(home, 'settings.json')), '644');
  });

  it('names what it could not change, does the rest, and never throws', async () => {
    oldHome(home, outside);
    let stuck: string;
    if (process.getuid?.() === 0) {
      // Root may chmod anything, except an immutable file.
      stuck = join(home, 'settings.json');
      execFileSync('chattr', ['+i', stuck]);
      undo.push(() => execFileSync('chattr', ['-i', stuck]));
    } else {
      // A folder its owner may not read cannot be walked.
      stuck = join(home, 'projects', 'locked');
      mkdirSync(stuck, { mode: 0o000 });
      undo.push(() => chmodSync(stuck, 0o700));
    }
    const note = await tightenOpendevHome(home);
    assert.match(note ?? '', new RegExp(`^${escape(home)} was open to other users; OpenDev made it private \\(folders 0700, files 0600; \\d+ changed\\), but could not change 1 \\(${escape(stuck)}: (EPERM|EACCES)\\); run chmod -R go-rwx ${escape(home)} to finish\\.$`));
    assert.equal(modeOf(home), '700');
    assert.equal(modeOf(join(home, 'projects', 'p', 's1.jsonl')), '600');
  });

  it('leaves a home that is the user’s own home folder, or contains it, as it is', async () => {
    oldHome(home, outside);
    const note = await tightenOpendevHome(home, { userHome: join(home, 'someone') });
    assert.equal(note, `${home} is open to other users, and OpenDev leaves it as it is: it is your home folder or contains it. Point OPENDEV_HOME at a folder of OpenDev's own.`);
    assert.equal(modeOf(home), '755');
    assert.equal(modeOf(join(home, 'settings.json')), '644');
    assert.match((await tightenOpendevHome(home, { userHome: home })) ?? '', /it is your home folder/);
  });

  it('does nothing on Windows, or when the home is not a folder', async () => {
    oldHome(home, outside);
    assert.equal(await tightenOpendevHome(home, { platform: 'win32' }), undefined);
    assert.equal(modeOf(join(home, 'settings.json')), '644');
    assert.equal(await tightenOpendevHome(join(home, 'settings.json')), undefined);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
