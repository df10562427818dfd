import type { Message } from '../messages';
import { loadTemplateSections, renderTemplate } from '../templates';
import { INVOKE_SKILL_TOOL, type Skill } from './skill';

const TEMPLATE = 'context/skills.md';

export type SkillTextName = 'loaded' | 'folder' | 'cut' | 'already_loaded' | 'unknown';

/** One section of templates/context/skills.md, rendered; '' when the installation lacks it. */
export function skillText(name: SkillTextName, vars: Record<string, string>): string {
  const text = loadTemplateSections(TEMPLATE).get(name);
  return text ? renderTemplate(text, vars).trim() : '';
}

/** The first line of a loaded skill's text: while a tool result in the history holds it, the body is still in context. */
function loadedMarker(skill: Pick<Skill, 'name' | 'tier'>): string | undefined {
  const first = loadTemplateSections(TEMPLATE).get('loaded')?.split('\n')[0]?.trim();
  return first ? renderTemplate(first, { NAME: skill.name, TIER: skill.tier }) : undefined;
}

/**
 * Whether this conversation still holds the skill's body: an invoke_skill result that has not been
 * masked, pruned or summarised away (staged compaction replaces old results; a full compaction,
 * /clear or "Restore to here" drops them), so a skill is loaded again once the model lost it.
 */
export function skillInHistory(history: readonly Message[], skill: Pick<Skill, 'name' | 'tier'>): boolean {
  const marker = loadedMarker(skill);
  if (!marker) return false;
  return history.some((m) => m.role === 'tool' && m.name === INVOKE_SKILL_TOOL && m.content.includes(marker));
}
