import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { createSlashCommands, type CommandAgent } from '../../../../src/core/commands/slash-commands';
import type { Message } from '../../../../src/core/messages';
import { createInvokeSkillTool } from '../../../../src/core/skills/invoke-skill-tool';
import type { SkillCatalog } from '../../../../src/core/skills/skill-catalog';
import { loadSkills } from '../../../../src/core/skills/skill-loader';
import { toolContext } from '../../../helpers/tool-context';
import { projectSkills, put, skillDirs, skillText, userSkills } from '../skills/skill-fixtures';

/** A stand-in agent: the skills and the conversation are all /skills reads. */
function agentWith(catalog: SkillCatalog | undefined, messages: Message[] = []): CommandAgent {
  return {
    mode: 'normal',
    setMode() {},
    thinkingLevel: 'off',
    setThinkingLevel() {},
    messages,
    clear() {},
    todos: () => [],
    cost: () => undefined,
    subagentTypes: () => [],
    toolNames: () => [],
    running: false,
    ...(catalog ? { skills: () => catalog } : {}),
  };
}

describe('/skills', () => {
  const commands = createSlashCommands();
  const d = skillDirs();
  put(d.builtin, 'deploy.md', skillText('deploy', 'Use when deploying (builtin).', 'Builtin.'));
  put(userSkills(d), 'deploy.md', skillText('deploy', 'Use when deploying to our cluster.', 'Run make deploy.'));
  put(projectSkills(d), 'release/SKILL.md', skillText('release', 'Use when cutting a release.', 'Tag it.'));
  put(projectSkills(d), 'broken.md', 'no frontmatter');
  const catalog = loadSkills({ workspaceRoot: d.workspace, home: d.home, builtinDir: d.builtin });
  const run = (line: string, agent: CommandAgent) => commands.run(line, { agent, front: 'cli' });

  it('lists the skills with their tier and description, marks the loaded ones, and shows problems', async () => {
    // The conversation holds release's body, as invoke_skill returned it.
    const loaded = await createInvokeSkillTool(catalog).run({ skill_name: 'release' }, toolContext({ workspaceRoot: d.workspace }));
    const messages: Message[] = [{ role: 'tool', toolCallId: 'c1', name: 'invoke_skill', content: loaded.output, isError: false }];
    const r = await run('/skills', agentWith(catalog, messages));
    assert.equal(r.error, undefined);
    const lines = r.output.split('\n');
    assert.equal(lines[0], 'Skills (2, 1 loaded in this conversation):');
    assert.match(lines[1]!, /^ {2}deploy +user {4} +Use when deploying to our cluster\.$/);
    assert.match(lines[2]!, /^● release +project +Use when cutting a release\.$/);
    assert.match(r.output, /Problems:\n {2}.*broken\.md: missing YAML frontmatter/);
    assert.match(r.output, new RegExp(`Read from .*${userSkills(d).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('/skills <name> shows its file, folder, whether it is loaded, and what it replaces', async () => {
    const deploy = await run('/skills Deploy', agentWith(catalog));
    assert.match(deploy.output, /^deploy \(user\)\nUse when deploying to our cluster\.\nFile: .*home\/skills\/deploy\.md\n/);
    assert.match(deploy.output, /Loaded in this conversation: no/);
    assert.match(deploy.output, new RegExp(`Replaces the builtin skill of the same name: ${join(d.builtin, 'deploy.md').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    const release = await run('/skills release', agentWith(catalog));
    assert.match(release.output, new RegExp(`Folder: ${join(projectSkills(d), 'release').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('an unknown name is a usage error naming the skills; no skills says where to put them', async () => {
    const unknown = await run('/skills relase', agentWith(catalog));
    assert.equal(unknown.error, 'usage');
    assert.match(unknown.output, /There is no skill "relase"\. Skills: release, deploy\./);

    const empty = skillDirs();
    const none = await run('/skills', agentWith(loadSkills({ workspaceRoot: empty.workspace, home: empty.home, builtinDir: empty.builtin })));
    assert.match(none.output, /^No skills found\./);
    assert.ok(none.output.includes(join(empty.workspace, '.opendev', 'skills', '<name>', 'SKILL.md')), none.output);

    const without = await run('/skills', agentWith(undefined));
    assert.equal(without.error, 'unavailable');
  });
});
