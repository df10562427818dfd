import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildMainSystemPrompt } from '../../../../src/core/context/prompt/main-system-prompt';
import type { MainPromptContext } from '../../../../src/core/context/prompt/prompt-context';
import { estimateTextTokens } from '../../../../src/core/context/token-estimate';
import { createInvokeSkillTool } from '../../../../src/core/skills/invoke-skill-tool';
import { SkillCatalog } from '../../../../src/core/skills/skill-catalog';
import { loadSkills } from '../../../../src/core/skills/skill-loader';
import { BUILTIN_SUBAGENTS } from '../../../../src/core/subagents/builtin-agents';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import { skillDirs } from './skill-fixtures';

describe('Skills in the system prompt: the index, never the bodies', () => {
  const home = mkdtempSync(join(tmpdir(), 'opendev-home-'));
  const d = skillDirs();
  const builtin = loadSkills({ workspaceRoot: d.workspace, home: d.home });
  const context = (skills?: MainPromptContext['skills']): MainPromptContext => ({
    workspaceRoot: '/home/dev/projects/shop-frontend',
    platform: 'linux',
    date: '2025-06-01',
    inGitRepo: true,
    subagentTypes: BUILTIN_SUBAGENTS.map((s) => s.name),
    todoEnabled: true,
    provider: 'openai',
    sessionId: 'a1b2c3d4',
    scratchDir: '/home/dev/.opendev/scratch/a1b2c3d4',
    ...(skills ? { skills } : {}),
  });
  const prompt = (skills?: MainPromptContext['skills']) => buildMainSystemPrompt(context(skills), { home });

  it('lists every skill by name and description in the cached part, and no body', () => {
    const { stable, dynamic } = prompt(builtin.summaries());
    assert.match(stable, /## Skills\n[\s\S]*load it with\s+invoke_skill before you start/);
    for (const skill of builtin.skills) {
      assert.ok(stable.includes(`- ${skill.name}: ${skill.description}`), `${skill.name} is indexed`);
      const bodyLine = skill.body.split('\n').find((l) => l.length > 40)!;
      assert.ok(!`${stable}${dynamic}`.includes(bodyLine), `${skill.name}'s body stays out of the prompt`);
    }
    assert.doesNotMatch(`${stable}${dynamic}`, /\$\{/, 'every variable resolved');
  });

  it('has no skills section, and names no invoke_skill, without skills', () => {
    const { stable, dynamic } = prompt();
    assert.doesNotMatch(`${stable}${dynamic}`, /## Skills|invoke_skill/);
  });

  it('keeps the first "hello" small: the builtin index and the tool schema add under 450 tokens', () => {
    const without = prompt();
    const withSkills = prompt(builtin.summaries());
    const addedChars = withSkills.stable.length + withSkills.dynamic.length - (without.stable.length + without.dynamic.length);
    const schema = JSON.stringify(new ToolRegistry().register(createInvokeSkillTool(builtin)).schemas());
    const addedTokens = estimateTextTokens(withSkills.stable) - estimateTextTokens(without.stable) + estimateTextTokens(schema);
    // Reported for the README (npm run test prints it); the assertion is the budget.
    console.log(`      builtin skills index: +${addedChars} chars in the prompt, +${schema.length} chars of schema, ≈ +${addedTokens} tokens`);
    assert.ok(addedTokens < 450, `${addedTokens} tokens`);
  });

  it('cuts a long description in the index; /skills keeps it whole', () => {
    const long = `Use when ${'the task is long and winding '.repeat(20)}`.trim();
    const catalog = new SkillCatalog([{ name: 'long', description: long, tier: 'user', file: '/x/long.md', body: 'B', bodyLine: 5, overrides: [] }]);
    const indexed = catalog.summaries()[0]!.description;
    assert.ok(indexed.length <= 250 && indexed.endsWith('…'), indexed);
    assert.equal(catalog.get('long')!.description, long);
    assert.ok(prompt(catalog.summaries()).stable.includes(`- long: ${indexed}`));
  });
});
