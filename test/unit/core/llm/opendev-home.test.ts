import * as assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { opendevPaths, resolveOpendevHome } from '../../../../src/core/config/opendev-home';

describe('OpenDev home', () => {
  it('defaults to ~/.opendev and honours OPENDEV_HOME (with ~ expanded)', () => {
    assert.equal(resolveOpendevHome({}, '/home/ada'), join('/home/ada', '.opendev'));
    assert.equal(resolveOpendevHome({ OPENDEV_HOME: '  ' }, '/home/ada'), join('/home/ada', '.opendev'));
    assert.equal(resolveOpendevHome({ OPENDEV_HOME: '/srv/opendev' }, '/home/ada'), '/srv/opendev');
    assert.equal(resolveOpendevHome({ OPENDEV_HOME: '~/state/od' }, '/home/ada'), join('/home/ada', 'state/od'));
    assert.equal(resolveOpendevHome({ OPENDEV_HOME: 'rel/dir' }, '/home/ada'), resolve('rel/dir'));
  });

  it('names the well-known places under it', () => {
    const p = opendevPaths('/h');
    assert.equal(p.cacheDir, join('/h', 'cache'));
    assert.equal(p.providerCacheDir, join('/h', 'cache', 'providers'));
    assert.equal(p.settingsFile, join('/h', 'settings.json'));
    assert.equal(p.permissionsFile, join('/h', 'permissions.json'));
    assert.equal(p.projectsDir, join('/h', 'projects'));
    assert.equal(p.snapshotDir, join('/h', 'snapshot'));
    assert.equal(p.scratchDir, join('/h', 'scratch'));
    assert.equal(p.skillsDir, join('/h', 'skills'));
  });
});
