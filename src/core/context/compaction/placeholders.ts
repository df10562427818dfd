import { loadTemplateSections, renderTemplate } from '../../templates';

/**
 * The placeholder texts of the staged compactor, from `templates/compaction/placeholders.md`
 * (`--- name ---` sections). Built-in fallbacks keep compaction working if the file is missing.
 */
export type PlaceholderName = 'masked_observation' | 'pruned_observation';

const FALLBACKS: Record<PlaceholderName, string> = {
  masked_observation: '[output of ${TOOL} masked: ${SUMMARY} — re-run the tool if needed]',
  pruned_observation: '[pruned] ${TOOL}',
};

export function placeholderTemplate(name: PlaceholderName): string {
  return loadTemplateSections('compaction/placeholders.md').get(name) || FALLBACKS[name];
}

export function renderPlaceholder(name: PlaceholderName, vars: Record<string, string>): string {
  return renderTemplate(placeholderTemplate(name), vars);
}

/**
 * True when `content` is already this placeholder (so a stage never reduces the same result twice):
 * it starts with the template's fixed text before the first variable and is placeholder-sized.
 */
export function isPlaceholder(name: PlaceholderName, content: string): boolean {
  const template = placeholderTemplate(name);
  const cut = template.indexOf('${');
  const prefix = cut < 0 ? template : template.slice(0, cut);
  return prefix.length > 0 && content.startsWith(prefix) && content.length <= template.length + 400;
}
