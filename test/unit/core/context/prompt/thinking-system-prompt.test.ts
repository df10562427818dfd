import * as assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeThinkingPrompt } from '../../../../../src/core/context/prompt/thinking-system-prompt';
import { templatesDir } from '../../../../../src/core/templates';

describe('composeThinkingPrompt', () => {
  const vars = { WORKSPACE_ROOT: '/w/app', MAX_WORDS: '60', SUBAGENT_TYPES: 'Code-Explorer, Planner' };

  it('joins the four thinking sections in order, with tools, subagents and the word limit filled in', () => {
    assert.deepEqual(readdirSync(join(templatesDir(), 'system', 'thinking')).sort(), [
      'thinking-available-tools.md', 'thinking-code-references.md', 'thinking-output-rules.md', 'thinking-subagent-guide.md',
    ]);
    const prompt = composeThinkingPrompt(vars)!;
    assert.match(prompt, /^You are the reasoning step of a coding agent working on the project at `\/w\/app`/);
    assert.match(prompt, /read_file, search and\s+list_files to look/);
    assert.match(prompt, /spawn_subagent \(types: Code-Explorer, Planner\)/);
    assert.match(prompt, /`path:line`/);
    assert.match(prompt, /at most 60 words of plain prose\.[^]*$/);
    assert.doesNotMatch(prompt, /\$\{/);
  });

  it('falls back to templates/system/thinking.md when the sections folder is missing', () => {
    const copy = mkdtempSync(join(tmpdir(), 'opendev-templates-'));
    cpSync(templatesDir(), copy, { recursive: true });
    rmSync(join(copy, 'system', 'thinking'), { recursive: true });
    const saved = process.env.OPENDEV_TEMPLATES_DIR;
    process.env.OPENDEV_TEMPLATES_DIR = copy;
    try {
      const prompt = composeThinkingPrompt(vars)!;
      assert.match(prompt, /Answer in at most 60 words of plain prose/);
      assert.doesNotMatch(prompt, /spawn_subagent \(types:/);
    } finally {
      if (saved === undefined) delete process.env.OPENDEV_TEMPLATES_DIR;
      else process.env.OPENDEV_TEMPLATES_DIR = saved;
    }
  });
});
