import * as z from 'zod';
import { asText } from '../frontmatter';

/** The tool that loads a skill's body; the prompt names it only when there are skills. */
export const INVOKE_SKILL_TOOL = 'invoke_skill';

/** Where a skill comes from; on a name clash the later tier wins (project > user > builtin). */
export const SKILL_TIERS = ['builtin', 'user', 'project'] as const;
export type SkillTier = (typeof SKILL_TIERS)[number];

/** A skill as found on disk; its body is what invoke_skill hands the model. */
export interface Skill {
  /** As written in the frontmatter (or the file / folder name); matched case-insensitively. */
  name: string;
  description: string;
  tier: SkillTier;
  /** The `<name>.md` file, or the folder's SKILL.md. */
  file: string;
  /** For the folder layout (`<name>/SKILL.md`): the folder, whose other files the body may refer to. */
  folder?: string;
  /** The markdown after the frontmatter, trimmed. */
  body: string;
  /** The 1-based line of `file` where the body starts (to point the model at the rest of a long body). */
  bodyLine: number;
  /** Skills of the same name from lower tiers (or project folders read earlier) that this one replaces. */
  overrides: ReadonlyArray<{ tier: SkillTier; file: string }>;
}

/** What the system prompt's index shows of a skill. */
export type SkillSummary = Pick<Skill, 'name' | 'description'>;

/** Letters, digits, `-`, `_` and `.`; starts with a letter or digit; at most 64 characters (Claude Code allows a subset). */
export const SKILL_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The fields OpenDev reads from a skill's frontmatter; others (Claude Code's `allowed-tools`,
 * `license`, `metadata` …) are accepted and ignored.
 */
export const SkillFrontmatterSchema = z.object({
  name: asText(
    z
      .string({ error: '"name" must be a single line of text' })
      .trim()
      .regex(SKILL_NAME_PATTERN, { error: 'invalid "name" (letters, digits, - _ and .; starts with a letter or digit; at most 64 characters)' }),
  ).optional(),
  description: asText(
    z
      .string({ error: (issue) => (issue.input === undefined ? '"description" is required (the index shows it so the agent knows when to load the skill)' : '"description" must be text') })
      .trim()
      .min(1, { error: '"description" is empty (the index shows it so the agent knows when to load the skill)' }),
  ),
});
export type SkillFrontmatter = z.infer<typeof SkillFrontmatterSchema>;

/** The key two skill names share when they are the same skill. */
export function skillKey(name: string): string {
  return name.trim().toLowerCase();
}
