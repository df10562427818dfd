import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..', '..');

describe('npm test on a machine without the system packages', () => {
  it('stops before the build and prints the apt-get line for exactly what is missing', () => {
    const bin = mkdtempSync(join(tmpdir(), 'opendev-path-'));
    symlinkSync(process.execPath, join(bin, 'node'));
    symlinkSync('/usr/bin/git', join(bin, 'git'));
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: bin };
    delete env.OPENDEV_CHROMIUM;
    const r = spawnSync(process.execPath, ['test/run.mjs'], { cwd: root, env, encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.doesNotMatch(r.stdout, /▶ build/);
    assert.match(r.stdout, /sudo apt-get install -y ripgrep bubblewrap socat chromium\n/);
    assert.match(r.stdout, /0 passed, 1 failed$/m);
  });
});
