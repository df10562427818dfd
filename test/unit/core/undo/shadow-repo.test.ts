import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { devNull, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gcIfDue } from '../../../../src/core/undo/gc-schedule';
import { ShadowRepo } from '../../../../src/core/undo/shadow-repo';
import { SnapshotTaker } from '../../../../src/core/undo/snapshot-taker';
import { writeFiles } from './workspace-state';

/** `<mode> <path>` of every folder and file under `root` that group or others may use. */
function openEntries(root: string): string[] {
  const found: string[] = [];
  const visit = (path: string) => {
    const info = lstatSync(path);
    if (info.isSymbolicLink()) return;
    if (info.mode & 0o077) found.push(`${(info.mode & 0o777).toString(8)} ${relative(root, path) || '.'}`);
    if (info.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  return found;
}

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** The shadow repository is private whatever the umask; what a restore writes in the workspace is not. */
describe('shadow-git repository: private files', function () {
  this.timeout(60_000);
  let workspace: string;
  let home: string;
  let umask: number;

  before(() => (umask = process.umask(0o022)));
  after(() => process.umask(umask));
  beforeEach(() => {
    workspace = mkdtempSync(join(tmpdir(), 'opendev-shadow-ws-'));
    home = mkdtempSync(join(tmpdir(), 'opendev-shadow-home-'));
  });
  afterEach(() => {
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  it('creates its folders 0700 and files 0600 (objects 0400), through snapshots, a restore and gc', async () => {
    const repo = new ShadowRepo(join(home, 'snapshot', 'project'), workspace, 'sess1');
    const taker = new SnapshotTaker(repo, { opendevHome: home, maxFileBytes: 4096 });
    writeFiles(workspace, { 'README.md': '# demo\n', 'src/util.ts': 'export {};\n' });
    const first = await taker.take();
    writeFiles(workspace, { 'README.md': '# changed\n' });
    rmSync(join(workspace, 'src'), { recursive: true });
    await taker.take();
    await repo.checkout(first.tree, ['README.md', 'src/util.ts']);
    await repo.persistIndex();
    // The first call writes the marker; a day later gc runs (and rewrites what it keeps).
    assert.equal(await gcIfDue(repo, { now: () => 0 }), 'not_due');
    assert.equal(await gcIfDue(repo, { now: () => 2 * 24 * 60 * 60 * 1000 }), 'ran');

    assert.deepEqual(openEntries(join(home, 'snapshot')), []);
    assert.equal(modeOf(join(home, 'snapshot')), '700');
    assert.equal(modeOf(join(repo.gitDir, 'config')), '600');
    // The restored files are the user's: the umask's modes, as any program would give them.
    assert.equal(modeOf(join(workspace, 'README.md')), '644');
    assert.equal(modeOf(join(workspace, 'src')), '755');
    assert.equal(modeOf(join(workspace, 'src', 'util.ts')), '644');
  });

  it('keeps a repository made before (no sharedRepository in its config) private from then on', async () => {
    const gitDir = join(home, 'snapshot', 'project');
    mkdirSync(gitDir, { recursive: true });
    const env = { ...process.env, GIT_DIR: gitDir, GIT_CONFIG_GLOBAL: devNull, GIT_CONFIG_NOSYSTEM: '1' };
    execFileSync('git', ['init', '--quiet', '--template='], { env });
    mkdirSync(join(gitDir, 'indexes'));
    execFileSync('chmod', ['-R', 'go-rwx', gitDir]); // as tightenOpendevHome leaves it
    const repo = new ShadowRepo(gitDir, workspace, 'sess1');
    const taker = new SnapshotTaker(repo, { opendevHome: home, maxFileBytes: 4096 });
    writeFileSync(join(workspace, 'a.txt'), 'a\n');
    await taker.take();
    assert.deepEqual(openEntries(gitDir), []);
  });
});
