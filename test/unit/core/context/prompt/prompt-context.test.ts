import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isInGitRepo, mainPromptContext, promptProviderOf } from '../../../../../src/core/context/prompt/prompt-context';

describe('prompt context', () => {
  it('tells the provider family from the settings; Fireworks by its base URL', () => {
    assert.equal(promptProviderOf({ provider: 'openai' }), 'openai');
    assert.equal(promptProviderOf({ provider: 'anthropic', baseUrl: 'https://api.anthropic.com' }), 'anthropic');
    assert.equal(promptProviderOf({ provider: 'openai-compatible', baseUrl: 'https://api.fireworks.ai/inference/v1' }), 'fireworks');
    assert.equal(promptProviderOf({ provider: 'openai-compatible', baseUrl: 'http://localhost:11434/v1' }), 'other');
  });

  it('finds .git in the workspace or any folder above it (a .git file counts: worktrees)', () => {
    const repo = mkdtempSync(join(tmpdir(), 'opendev-repo-'));
    const nested = join(repo, 'packages', 'app');
    mkdirSync(nested, { recursive: true });
    assert.equal(isInGitRepo(nested), false);
    writeFileSync(join(repo, '.git'), 'gitdir: /elsewhere/.git/worktrees/x\n');
    assert.equal(isInGitRepo(nested), true);
  });

  it('the main agent’s context: todos on, subagents and session from the factory', () => {
    const ctx = mainPromptContext({
      workspaceRoot: '/w',
      action: { provider: 'openai-compatible', baseUrl: 'https://api.fireworks.ai/inference/v1' },
      subagentTypes: ['Code-Explorer'],
      sessionId: 's1',
      scratchDir: '/h/scratch/s1',
    });
    assert.equal(ctx.todoEnabled, true);
    assert.equal(ctx.provider, 'fireworks');
    assert.deepEqual(ctx.subagentTypes, ['Code-Explorer']);
    assert.match(ctx.date!, /^\d{4}-\d{2}-\d{2}$/);
  });
});
