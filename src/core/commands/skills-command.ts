// /skills: the skills the agent can load, and where each one lives (user-facing text, not prompts).
import type { Skill } from '../skills/skill';
import type { SkillCatalog } from '../skills/skill-catalog';
import { skillInHistory } from '../skills/skill-texts';
import type { CommandAgent, CommandResult, SlashCommand } from './command-registry';

const DESCRIPTION_COLUMNS = 90;

export function skillsCommand(): SlashCommand {
  return {
    name: 'skills',
    summary: 'List the skills the agent can load; /skills <name> shows where one lives',
    usage: '/skills [name]',
    whileRunning: true,
    async run(args, ctx): Promise<CommandResult> {
      const catalog = ctx.agent.skills?.();
      if (!catalog) return { output: 'Skills are not available for this agent.', error: 'unavailable' };
      const name = args.trim();
      if (name) return describeOne(catalog, name, ctx.agent);
      return { output: listSkills(catalog, ctx.agent) };
    },
  };
}

function listSkills(catalog: SkillCatalog, agent: CommandAgent): string {
  const lines: string[] = [];
  if (catalog.size === 0) {
    lines.push('No skills found. Add one as a markdown file with `name` and `description` ("Use when…") frontmatter:', ...whereToPut(catalog));
  } else {
    const loaded = catalog.skills.filter((s) => skillInHistory(agent.messages, s)).length;
    lines.push(`Skills (${catalog.size}${loaded > 0 ? `, ${loaded} loaded in this conversation` : ''}):`);
    const width = Math.max(...catalog.skills.map((s) => s.name.length));
    for (const skill of catalog.skills) {
      const mark = skillInHistory(agent.messages, skill) ? '●' : ' ';
      lines.push(`${mark} ${skill.name.padEnd(width)}  ${skill.tier.padEnd(7)}  ${clip(skill.description)}`);
    }
    lines.push('', `${loaded > 0 ? '● loaded in this conversation. ' : ''}The agent loads a skill when it fits the task; ask for one by name to make sure. /skills <name> shows its file.`);
    lines.push(`Read from (a later folder wins on a name clash): ${catalog.folders.map((f) => f.dir).join(', ')}`);
  }
  if (catalog.warnings.length > 0) lines.push('', 'Problems:', ...catalog.warnings.map((w) => `  ${w}`));
  return lines.join('\n');
}

function describeOne(catalog: SkillCatalog, name: string, agent: CommandAgent): CommandResult {
  const skill = catalog.get(name);
  if (!skill) {
    const names = catalog.namesClosestTo(name);
    return { output: `There is no skill "${name}".${names.length > 0 ? ` Skills: ${names.join(', ')}.` : ' No skills are installed: /skills says where to put them.'}`, error: 'usage' };
  }
  const lines = [
    `${skill.name} (${skill.tier})`,
    skill.description,
    `File: ${skill.file}`,
    ...(skill.folder ? [`Folder: ${skill.folder} (the agent may read the files in it)`] : []),
    `Size: ${skill.body.length.toLocaleString('en-US')} characters, loaded only when the agent calls invoke_skill`,
    `Loaded in this conversation: ${skillInHistory(agent.messages, skill) ? 'yes' : 'no'}`,
    ...overrides(skill),
  ];
  return { output: lines.join('\n') };
}

function overrides(skill: Skill): string[] {
  return skill.overrides.map((o) => `Replaces the ${o.tier} skill of the same name: ${o.file}`);
}

function whereToPut(catalog: SkillCatalog): string[] {
  return catalog.folders
    .filter((f) => f.tier !== 'builtin')
    .map((f) => `  ${f.tier.padEnd(7)}  ${f.dir}/<name>.md or ${f.dir}/<name>/SKILL.md`);
}

function clip(text: string): string {
  return text.length > DESCRIPTION_COLUMNS ? `${text.slice(0, DESCRIPTION_COLUMNS - 1).trimEnd()}…` : text;
}
