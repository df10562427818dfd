import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workingTreeDiff } from '../../../../src/core/mentions/git-diff';

describe('@git: the working tree diff', () => {
  it('runs no program the repository’s own .git/config names (fsmonitor): it says why instead', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'opendev-gitdiff-'));
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', ...args], { cwd: repo });
    git('init', '-q');
    writeFileSync(join(repo, 'a.txt'), 'one\n');
    git('add', 'a.txt');
    git('commit', '-qm', 'first');
    const marker = join(repo, 'fsmonitor-ran');
    const hook = join(repo, 'fsmonitor.sh');
    writeFileSync(hook, `#!/bin/sh\ntouch '${marker}'\n`);
    chmodSync(hook, 0o755);
    git('config', 'core.fsmonitor', hook);
    writeFileSync(join(repo, 'a.txt'), 'one\ntwo\n');
    assert.match(await workingTreeDiff(repo).catch((e: Error) => e.message), /the repository's \.git\/config names a program git would run \(fsmonitor\)/);
    assert.equal(existsSync(marker), false, 'the repository’s fsmonitor program did not run');
    git('config', '--unset', 'core.fsmonitor');
    assert.match(await workingTreeDiff(repo), /\+two/, 'an ordinary repository shows its changes');
  });
});
