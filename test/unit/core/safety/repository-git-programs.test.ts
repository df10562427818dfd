import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { judgeCommand } from '../../../../src/core/safety/command-judge';

/** `git status` is read-only, yet git runs the fsmonitor (or a clean filter) a folder's own .git/config names. */
describe('git commands in a repository whose .git/config names programs', () => {
  const judge = (ws: string, command: string) => judgeCommand(command, { rules: [], level: 'semi-auto', workspaceRoot: ws });
  const repo = () => {
    const ws = mkdtempSync(join(tmpdir(), 'opendev-gitprog-'));
    execFileSync('git', ['init', '-q'], { cwd: ws });
    return ws;
  };

  it('an ordinary repository: git status runs unasked at semi-auto', () => {
    assert.equal(judge(repo(), 'git status').action, 'allow');
  });

  for (const [key, value] of [['core.fsmonitor', './watch.sh'], ['filter.x.clean', './clean.sh'], ['diff.x.textconv', './conv.sh'], ['core.pager', './less.sh'], ['include.path', '../other.config']] as const) {
    it(`${key} in .git/config: git status and git diff ask, naming it; other safe commands do not`, () => {
      const ws = repo();
      execFileSync('git', ['config', key, value], { cwd: ws });
      for (const command of ['git status', 'git diff HEAD', 'ls && git log -1']) {
        const j = judge(ws, command);
        assert.equal(j.action, 'ask', command);
        assert.match(j.reason ?? j.parts?.find((p) => p.action === 'ask')?.reason ?? '', /\.git\/config names a program git would run/, command);
      }
      assert.equal(judge(ws, 'ls').action, 'allow');
    });
  }
});
