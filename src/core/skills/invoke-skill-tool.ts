import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as z from 'zod';
import { ToolError, summaryLine, type Tool } from '../tools/tool';
import { INVOKE_SKILL_TOOL, type Skill } from './skill';
import type { SkillCatalog } from './skill-catalog';
import { skillInHistory, skillText } from './skill-texts';

/**
 * Most of a skill's body shown inline: with its wrapper it stays under the 8,000 characters beyond
 * which tool outputs are offloaded, so the instructions themselves reach the model.
 */
const MAX_INLINE_BODY_CHARS = 7_000;
/** Supporting files named in the folder note (the model can list the folder for more). */
const MAX_LISTED_FILES = 20;

const schema = z.lazy(() => z.object({
  skill_name: z.string().trim().min(1).describe('A name from the Skills list.'),
}));

/**
 * invoke_skill: a skill's body (frontmatter stripped), once per conversation. While the body is
 * still in the agent's history a second call gets a short note instead; once compaction has taken
 * it out, the skill loads again. Each agent (a subagent too) has its own history, so its own loads.
 */
export function createInvokeSkillTool(catalog: SkillCatalog): Tool<typeof schema> {
  return {
    name: INVOKE_SKILL_TOOL,
    category: 'meta',
    readOnly: true,
    schema,
    async run(args, ctx) {
      const skill = catalog.get(args.skill_name);
      if (!skill) {
        const available = catalog.namesClosestTo(args.skill_name).join(', ') || '(none)';
        throw new ToolError('not_found', skillText('unknown', { NAME: args.skill_name, AVAILABLE: available }) || available);
      }
      if (ctx.history && skillInHistory(ctx.history, skill)) {
        return { ok: true, output: skillText('already_loaded', { NAME: skill.name }), summary: `✓ Skill ${skill.name} already loaded` };
      }
      const output = loadedText(skill);
      return { ok: true, output, summary: summaryLine(`✓ Loaded skill ${skill.name} (${skill.tier}, ${skill.body.length.toLocaleString('en-US')} chars)`) };
    },
  };
}

/** The body in its wrapper, then where its folder is and, for a long body, where the rest is. */
function loadedText(skill: Skill): string {
  const { shown, nextLine } = inlineBody(skill);
  const loaded = skillText('loaded', { NAME: skill.name, TIER: skill.tier, BODY: shown }) || shown;
  const files = skill.folder ? supportingFiles(skill.folder) : [];
  const folder = skill.folder && files.length > 0 ? skillText('folder', { FOLDER: skill.folder, FILES: files.join(', ') }) : '';
  const cut = nextLine !== undefined ? skillText('cut', { FILE: skill.file, LINE: String(nextLine) }) : '';
  return [loaded, folder, cut].filter((p) => p !== '').join('\n\n');
}

/** The whole body, or its first lines up to the inline limit and the file line where the rest starts. */
function inlineBody(skill: Skill): { shown: string; nextLine?: number } {
  if (skill.body.length <= MAX_INLINE_BODY_CHARS) return { shown: skill.body };
  const lines = skill.body.split('\n');
  const kept: string[] = [];
  let size = 0;
  for (const line of lines) {
    if (size + line.length + 1 > MAX_INLINE_BODY_CHARS && kept.length > 0) break;
    kept.push(line.length > MAX_INLINE_BODY_CHARS ? line.slice(0, MAX_INLINE_BODY_CHARS) : line);
    size += line.length + 1;
  }
  return { shown: kept.join('\n'), nextLine: skill.bodyLine + kept.length };
}

/** The folder's other files (two levels deep, hidden ones left out), relative to it. */
function supportingFiles(folder: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    } catch {
      return;
    }
    for (const entry of entries) {
      if (found.length > MAX_LISTED_FILES || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < 2) walk(path, depth + 1);
      } else if (!(depth === 1 && entry.name.toLowerCase() === 'skill.md')) found.push(relative(folder, path));
    }
  };
  walk(folder, 1);
  return found.length > MAX_LISTED_FILES ? [...found.slice(0, MAX_LISTED_FILES), '…'] : found;
}
