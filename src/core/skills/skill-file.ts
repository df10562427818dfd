import { parseFrontmatter, splitFrontmatter } from '../frontmatter';
import { SKILL_NAME_PATTERN, SkillFrontmatterSchema, type Skill, type SkillTier } from './skill';

export interface SkillFileOrigin {
  /** The file's path, named in every warning. */
  file: string;
  /** The name when the frontmatter gives none: the file's name without `.md`, or the folder's. */
  defaultName: string;
  tier: SkillTier;
  /** Set for the folder layout (`<folder>/SKILL.md`). */
  folder?: string;
}

/**
 * One skill file: YAML frontmatter (`name`, `description`) and a markdown body. A file that cannot
 * be used gives no skill and a warning naming it and why; a description that does not start
 * "Use when…" is kept, with a warning (it is how the agent knows when to load the skill).
 */
export function parseSkillFile(text: string, origin: SkillFileOrigin): { skill?: Skill; warnings: string[] } {
  const { file } = origin;
  const parts = splitFrontmatter(text);
  if ('error' in parts) return { warnings: [`${file}: ${parts.error}`] };
  const fields = parseFrontmatter(parts.header);
  if ('error' in fields) return { warnings: [`${file}: invalid frontmatter: ${fields.error}`] };
  const parsed = SkillFrontmatterSchema.safeParse(fields.values);
  if (!parsed.success) return { warnings: [`${file}: ${parsed.error.issues.map((i) => i.message).join('; ')}`] };
  const name = parsed.data.name ?? origin.defaultName;
  if (!SKILL_NAME_PATTERN.test(name)) {
    return { warnings: [`${file}: "${name}" is not a usable skill name (letters, digits, - _ and .; starts with a letter or digit; at most 64 characters): set "name" in the frontmatter`] };
  }
  const body = parts.body.trim();
  if (body === '') return { warnings: [`${file}: the body is empty (it is what the agent reads when it loads "${name}")`] };
  const warnings: string[] = [];
  if (!/^use when\b/i.test(parsed.data.description)) {
    warnings.push(`${file}: the description of "${name}" should start "Use when…" (it tells the agent when to load the skill); loaded anyway`);
  }
  const leadingNewlines = /^\s*/.exec(parts.body)![0].split('\n').length - 1;
  const skill: Skill = {
    name,
    description: parsed.data.description.replace(/\s+/g, ' '),
    tier: origin.tier,
    file,
    ...(origin.folder ? { folder: origin.folder } : {}),
    body,
    bodyLine: parts.header.split('\n').length + 2 + leadingNewlines + 1,
    overrides: [],
  };
  return { skill, warnings };
}
