import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHADOW_ATTRIBUTES } from '../../../../src/core/undo/shadow-excludes';
import { ShadowRepo } from '../../../../src/core/undo/shadow-repo';
import { SnapshotTaker } from '../../../../src/core/undo/snapshot-taker';
import { gitDirState, initProjectRepo, projectGit, writeFiles } from './workspace-state';

/** The shadow repo's tree snapshots, on real git, against a real project repository. */
describe('shadow-git snapshots', function () {
  this.timeout(60_000);
  let workspace: string;
  let home: string;
  let repo: ShadowRepo;
  let taker: SnapshotTaker;

  beforeEach(() => {
    workspace = mkdtempSync(join(tmpdir(), 'opendev-undo-ws-'));
    home = mkdtempSync(join(tmpdir(), 'opendev-undo-home-'));
    repo = new ShadowRepo(join(home, 'snapshot', 'project'), workspace, 'sess1');
    taker = new SnapshotTaker(repo, { opendevHome: home, maxFileBytes: 4096 });
  });
  afterEach(() => {
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  const treeFiles = async (tree: string) => (await repo.git(['ls-tree', '-r', '--name-only', '-z', tree])).toString('utf8').split('\0').filter(Boolean).sort();

  it("snapshots the workspace into its own store and leaves the project's .git byte-identical", async () => {
    initProjectRepo(workspace);
    const before = gitDirState(join(workspace, '.git'));
    const first = await taker.take();
    writeFiles(workspace, { 'src/new.ts': 'new\n', 'README.md': '# changed\n' });
    rmSync(join(workspace, 'src/util.ts'));
    const second = await taker.take();
    assert.notEqual(first.tree, second.tree);
    assert.deepEqual(await repo.diff(first.tree, second.tree), [
      { path: 'README.md', change: 'modified' },
      { path: 'src/new.ts', change: 'added' },
      { path: 'src/util.ts', change: 'deleted' },
    ]);
    await repo.checkout(first.tree, ['README.md', 'src/util.ts']);
    assert.equal(readFileSync(join(workspace, 'README.md'), 'utf8'), '# demo\n');
    assert.deepEqual(gitDirState(join(workspace, '.git')), before, 'HEAD, index, refs, config, objects: untouched');
    assert.ok(!(await treeFiles(second.tree)).some((p) => p.startsWith('.git/')), 'no .git content in a snapshot');
    assert.match(projectGit(workspace, 'log', '--format=%s'), /^second\nfirst\n$/);
  });

  it("ignores a GIT_DIR or GIT_INDEX_FILE in the environment that points at the user's repository", async () => {
    initProjectRepo(workspace);
    const before = gitDirState(join(workspace, '.git'));
    const saved = { dir: process.env.GIT_DIR, index: process.env.GIT_INDEX_FILE, objects: process.env.GIT_OBJECT_DIRECTORY };
    process.env.GIT_DIR = join(workspace, '.git');
    process.env.GIT_INDEX_FILE = join(workspace, '.git', 'index');
    process.env.GIT_OBJECT_DIRECTORY = join(workspace, '.git', 'objects');
    try {
      writeFiles(workspace, { 'fresh.txt': 'never seen by the user repo\n' });
      await taker.take();
    } finally {
      for (const [key, value] of [['GIT_DIR', saved.dir], ['GIT_INDEX_FILE', saved.index], ['GIT_OBJECT_DIRECTORY', saved.objects]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
    assert.deepEqual(gitDirState(join(workspace, '.git')), before);
  });

  it("leaves out what the project's .gitignore files and .git/info/exclude ignore, and OpenDev's home inside the workspace", async () => {
    initProjectRepo(workspace);
    writeFileSync(join(workspace, '.git', 'info', 'exclude'), 'secret.env\n');
    writeFiles(workspace, { 'dist/bundle.js': 'x', 'debug.log': 'x', 'secret.env': 'KEY=1', 'pkg/.gitignore': 'generated/\n', 'pkg/generated/a.ts': 'x', 'pkg/keep.ts': 'x' });
    const inner = new ShadowRepo(join(workspace, '.opendev-home', 'snapshot', 'p'), workspace, 's');
    writeFiles(workspace, { '.opendev-home/projects/p/operations.jsonl': '{}\n' });
    const snap = await new SnapshotTaker(inner, { opendevHome: join(workspace, '.opendev-home') }).take();
    const files = (await inner.git(['ls-tree', '-r', '--name-only', '-z', snap.tree])).toString('utf8').split('\0').filter(Boolean).sort();
    assert.deepEqual(files, ['.gitignore', 'README.md', 'pkg/.gitignore', 'pkg/keep.ts', 'src/app.ts', 'src/util.ts']);
  });

  it('skips a file over the size cap (and says so), and takes it again once it is under the cap', async () => {
    writeFiles(workspace, { 'small.txt': 'ok\n', 'big.bin': Buffer.alloc(5000, 1) });
    const first = await taker.take();
    assert.deepEqual(first.oversized.map((f) => [f.path, f.bytes]), [['big.bin', 5000]]);
    assert.deepEqual(await treeFiles(first.tree), ['small.txt']);
    writeFiles(workspace, { 'big.bin': 'now small\n' });
    const second = await taker.take();
    assert.deepEqual(second.oversized, []);
    assert.deepEqual(await treeFiles(second.tree), ['big.bin', 'small.txt']);
    writeFiles(workspace, { 'big.bin': Buffer.alloc(6000, 2) });
    const third = await taker.take();
    assert.deepEqual(await treeFiles(third.tree), ['small.txt'], 'a tracked file that grows over the cap leaves the snapshot');
  });

  it("snapshots nested repositories' files as plain files (their .git never), with or without commits", async () => {
    initProjectRepo(workspace);
    writeFiles(workspace, { 'vendor/lib/index.js': 'lib\n', 'vendor/lib/deep/inner/x.js': 'x\n', 'scratch/notes.md': 'n\n' });
    projectGit(join(workspace, 'vendor/lib'), 'init', '-q');
    projectGit(join(workspace, 'vendor/lib'), 'add', '-A');
    projectGit(join(workspace, 'vendor/lib'), 'commit', '-qm', 'lib');
    projectGit(join(workspace, 'vendor/lib/deep/inner'), 'init', '-q'); // no commit: `git add` alone would fail here
    projectGit(join(workspace, 'scratch'), 'init', '-q');
    const nestedGit = gitDirState(join(workspace, 'vendor/lib/.git'));
    const snap = await taker.take();
    assert.deepEqual((await treeFiles(snap.tree)).filter((p) => !p.startsWith('src/')), ['.gitignore', 'README.md', 'scratch/notes.md', 'vendor/lib/deep/inner/x.js', 'vendor/lib/index.js']);
    assert.deepEqual(snap.newNestedRepos.sort(), ['scratch', 'vendor/lib', 'vendor/lib/deep/inner']);
    writeFiles(workspace, { 'vendor/lib/index.js': 'changed\n' });
    const next = await taker.take();
    assert.deepEqual(await repo.diff(snap.tree, next.tree), [{ path: 'vendor/lib/index.js', change: 'modified' }]);
    assert.deepEqual(gitDirState(join(workspace, 'vendor/lib/.git')), nestedGit);
  });

  it('restores byte-identical content whatever the project .gitattributes say (no eol or filter conversion)', async () => {
    const crlf = Buffer.from('line one\r\nline two\n\x00binary\r\n');
    writeFiles(workspace, { '.gitattributes': '* text=auto eol=crlf\n*.dat filter=lfs diff=lfs merge=lfs -text\n', 'mixed.txt': crlf, 'blob.dat': crlf });
    const snap = await taker.take();
    writeFiles(workspace, { 'mixed.txt': 'gone\n', 'blob.dat': 'gone\n' });
    await repo.checkout(snap.tree, ['mixed.txt', 'blob.dat']);
    assert.deepEqual(readFileSync(join(workspace, 'mixed.txt')), crlf);
    assert.deepEqual(readFileSync(join(workspace, 'blob.dat')), crlf);
  });

  it('is incremental: a second session starts from the index the first one handed on', async () => {
    writeFiles(workspace, { 'a.txt': 'a\n' });
    const first = await taker.take();
    await repo.persistIndex();
    const next = new ShadowRepo(repo.gitDir, workspace, 'sess2');
    await next.ensure();
    assert.ok(existsSync(next.target.indexFile), 'the new session copied the shared index');
    assert.equal((await new SnapshotTaker(next, { opendevHome: home }).take()).tree, first.tree);
  });

  it('a store a killed process left half-made (no HEAD) is set aside, and a complete one is made in one rename', async () => {
    mkdirSync(join(repo.gitDir, 'objects'), { recursive: true });
    writeFileSync(join(repo.gitDir, 'config'), '[core]\n');
    writeFiles(workspace, { 'a.txt': 'a\n' });
    const snap = await taker.take();
    assert.match(await repo.git(['cat-file', '-p', snap.tree]).then(String), /\ta\.txt\n/);
    assert.equal(readFileSync(join(repo.gitDir, 'info', 'attributes'), 'utf8'), SHADOW_ATTRIBUTES, 'the new store has its settings');
    const siblings = readdirSync(join(home, 'snapshot'));
    assert.equal(siblings.length, 2, siblings.join(', '));
    assert.ok(siblings.some((n) => /^project\.damaged-\d+$/.test(n)), 'the half-made one is kept aside, not deleted');
  });
});
