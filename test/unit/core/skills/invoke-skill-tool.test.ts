import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { maskObservations } from '../../../../src/core/context/compaction/observation-stages';
import type { Message } from '../../../../src/core/messages';
import { createInvokeSkillTool } from '../../../../src/core/skills/invoke-skill-tool';
import type { SkillCatalog } from '../../../../src/core/skills/skill-catalog';
import { loadSkills } from '../../../../src/core/skills/skill-loader';
import { readFileTool } from '../../../../src/core/tools/read-file';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { ToolResult } from '../../../../src/core/tools/tool';
import { toolContext } from '../../../helpers/tool-context';
import { projectSkills, put, skillDirs, skillText, userSkills, type SkillDirs } from './skill-fixtures';

describe('Skills: invoke_skill', () => {
  let d: SkillDirs;
  let catalog: SkillCatalog;
  let registry: ToolRegistry;
  let history: Message[];
  let calls = 0;

  /** Calls invoke_skill as the agent would, and adds the call and its result to `history`. */
  async function invoke(name: string): Promise<ToolResult> {
    const id = `call_${++calls}`;
    const args = JSON.stringify({ skill_name: name });
    const result = await registry.execute({ id, name: 'invoke_skill', arguments: args }, toolContext({ workspaceRoot: d.workspace, history, readableDirs: catalog.skillDirs() }));
    history.push({ role: 'assistant', content: '', toolCalls: [{ id, name: 'invoke_skill', arguments: args }] });
    history.push({ role: 'tool', toolCallId: id, name: 'invoke_skill', content: result.output, isError: !result.ok, summary: result.summary });
    return result;
  }

  beforeEach(() => {
    d = skillDirs();
    put(userSkills(d), 'deploy.md', skillText('deploy', 'Use when deploying.', '# Deploy\nRun `make deploy`, then check /health.'));
    put(projectSkills(d), 'release/SKILL.md', skillText('release', 'Use when cutting a release.', 'Follow checklist.md in this folder.'));
    put(projectSkills(d), 'release/checklist.md', '1. Bump the version.\n');
    put(projectSkills(d), 'release/scripts/tag.sh', 'git tag\n');
    catalog = loadSkills({ workspaceRoot: d.workspace, home: d.home, builtinDir: join(d.home, 'none') });
    registry = new ToolRegistry().register(createInvokeSkillTool(catalog)).register(readFileTool);
    history = [{ role: 'user', content: 'deploy the app' }];
  });

  it('returns the body without its frontmatter the first time, and a short note the second time', async () => {
    const first = await invoke('deploy');
    assert.equal(first.ok, true);
    assert.match(first.output, /^<skill_content name="deploy" source="user">\n# Deploy\nRun `make deploy`, then check \/health\.\n<\/skill_content>/);
    assert.doesNotMatch(first.output, /description:|^---/m);
    assert.match(first.summary, /Loaded skill deploy \(user, \d+ chars\)/);

    const second = await invoke('Deploy');
    assert.equal(second.ok, true);
    assert.match(second.output, /already loaded earlier in this conversation \(see above\)/);
    assert.doesNotMatch(second.output, /make deploy/);
    assert.ok(second.output.length < 120);
  });

  it('loads the body again once compaction has masked it, or the conversation no longer has it', async () => {
    await invoke('deploy');
    for (let i = 0; i < 4; i++) history.push({ role: 'tool', toolCallId: `x${i}`, name: 'read_file', content: `file ${i}\n`.repeat(200), isError: false });
    maskObservations(history, 3);
    assert.doesNotMatch(JSON.stringify(history), /make deploy/, 'the body was masked');
    const again = await invoke('deploy');
    assert.match(again.output, /make deploy/, 'masked: loaded again');

    history.splice(0, history.length, { role: 'user', content: '## Summary of the conversation so far …' });
    assert.match((await invoke('deploy')).output, /make deploy/, 'after a full compaction: loaded again');
  });

  it('a folder skill names its folder and files, and read_file can read them', async () => {
    const result = await invoke('release');
    const folder = join(projectSkills(d), 'release');
    assert.match(result.output, new RegExp(`This skill's folder is \`${folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\``));
    assert.match(result.output, /\(checklist\.md, scripts\/tag\.sh\)/);
    const read = await registry.execute({ id: 'r', name: 'read_file', arguments: JSON.stringify({ file_path: join(folder, 'checklist.md') }) }, toolContext({ workspaceRoot: join(d.home, 'elsewhere'), readableDirs: catalog.skillDirs() }));
    assert.equal(read.ok, true, read.output);
    assert.match(read.output, /Bump the version/);
  });

  it('an unknown name is a not_found error listing the skills, the closest first', async () => {
    const result = await invoke('deplyo');
    assert.equal(result.ok, false);
    assert.equal(result.errorKind, 'not_found');
    assert.match(result.output, /There is no skill "deplyo"\. Available skills, closest first: deploy, release\./);
  });

  it('a long body is cut before the offload limit, saying where the rest is', async () => {
    const lines = Array.from({ length: 400 }, (_, i) => `Step ${i + 1}: do the thing number ${i + 1} carefully.`);
    const file = put(projectSkills(d), 'long.md', skillText('long', 'Use when long.', lines.join('\n')));
    catalog = loadSkills({ workspaceRoot: d.workspace, home: d.home, builtinDir: join(d.home, 'none') });
    registry = new ToolRegistry().register(createInvokeSkillTool(catalog));
    const result = await invoke('long');
    assert.ok(result.output.length < 8000, `${result.output.length} chars`);
    const shown = (result.output.match(/^Step \d+:/gm) ?? []).length;
    // The file has 4 header lines (---, name, description, ---): step n is on line n + 4.
    assert.match(result.output, new RegExp(`read \`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\` from line ${shown + 5} with read_file`));
  });

  it('is read-only (so the approval step lets it through), with a short, described schema', () => {
    const tool = registry.get('invoke_skill')!;
    assert.equal(tool.readOnly, true);
    const schema = registry.schemas(new Set(['invoke_skill']))[0]!;
    assert.ok(JSON.stringify(schema).length <= 450, `${JSON.stringify(schema).length} chars`);
    assert.ok((schema.parameters as { properties: Record<string, { description?: string }> }).properties.skill_name!.description);
  });
});
