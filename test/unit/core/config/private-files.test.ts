import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdirPrivate, mkdirPrivateSync } from '../../../../src/core/config/private-files';

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('private folders under OPENDEV_HOME', () => {
  let root: string;
  let umask: number;

  before(() => (umask = process.umask(0o022)));
  after(() => process.umask(umask));
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'opendev-private-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('creates every missing folder 0700 under the usual umask, without changing the umask', async () => {
    await mkdirPrivate(join(root, 'home', 'projects', 'p'));
    mkdirPrivateSync(join(root, 'home', 'scratch', 's', 'tasks'));
    for (const dir of ['home', 'home/projects', 'home/projects/p', 'home/scratch', 'home/scratch/s', 'home/scratch/s/tasks']) {
      assert.equal(modeOf(join(root, dir)), '700', dir);
    }
    mkdirSync(join(root, 'workspace-folder'));
    assert.equal(modeOf(join(root, 'workspace-folder')), '755', 'other folders keep the umask’s modes');
    assert.equal(process.umask(0o022), 0o022);
  });

  it('leaves a folder that exists as it is (an older install is tightened once, at start)', async () => {
    mkdirSync(join(root, 'home'), { mode: 0o755 });
    await mkdirPrivate(join(root, 'home', 'cache'));
    assert.equal(modeOf(join(root, 'home')), '755');
    assert.equal(modeOf(join(root, 'home', 'cache')), '700');
  });
});
