import * as assert from 'node:assert/strict';
import { loadSkills } from '../../../../src/core/skills/skill-loader';
import { skillDirs } from './skill-fixtures';

describe('Skills shipped with OpenDev (templates/skills/)', () => {
  const d = skillDirs();
  const catalog = loadSkills({ workspaceRoot: d.workspace, home: d.home });

  it('git conventions, code review, writing tests and debugging parse without a warning', () => {
    assert.deepEqual(catalog.warnings, []);
    assert.deepEqual(catalog.skills.map((s) => s.name), ['code-review', 'git-conventions', 'systematic-debugging', 'writing-tests']);
    for (const skill of catalog.skills) assert.equal(skill.tier, 'builtin');
  });

  it('every description starts "Use when", and every body fits in one tool result', () => {
    for (const skill of catalog.skills) {
      assert.match(skill.description, /^Use when /, skill.name);
      assert.ok(skill.description.length <= 160, `${skill.name}: keep the index line short (${skill.description.length} chars)`);
      assert.ok(skill.body.length > 500 && skill.body.length < 7000, `${skill.name}: ${skill.body.length} chars`);
      assert.doesNotMatch(skill.body, /^---/, 'no frontmatter in the body');
    }
  });

  it('the git skill says what never to commit and how to write the message', () => {
    const body = catalog.get('git-conventions')!.body;
    assert.match(body, /## Never commit[\s\S]*\.env[\s\S]*node_modules/);
    assert.match(body, /imperative mood/);
  });
});
