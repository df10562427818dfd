import type { Message } from '../../messages';
import { loadTemplate, loadTemplateSections, renderTemplate } from '../../templates';

/**
 * The texts of the full compaction: the summariser's system prompt (`templates/system/compaction.md`)
 * and the sections of `templates/compaction/full-compaction.md`. A missing section renders as
 * undefined and the caller degrades (a plainer message, or the deterministic summary).
 */
export type CompactionSection =
  | 'summary_request'
  | 'prior_summary'
  | 'extra_instructions'
  | 'omitted_messages'
  | 'summary_message'
  | 'archive_note'
  | 'archive_unavailable'
  | 'fallback_summary';

const FILE = 'compaction/full-compaction.md';

export function compactionSystemPrompt(): string | undefined {
  return loadTemplate('system/compaction.md');
}

export function compactionText(name: CompactionSection, vars: Record<string, string>): string | undefined {
  const section = loadTemplateSections(FILE).get(name);
  return section ? renderTemplate(section, vars) : undefined;
}

/** The fixed opening of a summary message (its text before the first variable). */
function summaryMarker(): string {
  const template = loadTemplateSections(FILE).get('summary_message') ?? '';
  const cut = template.indexOf('${');
  return (cut < 0 ? template : template.slice(0, cut)).trim();
}

/** True for the message a previous full compaction put in place of the middle of the history. */
export function isCompactionSummary(message: Message): boolean {
  const marker = summaryMarker();
  return message.role === 'user' && marker.length > 0 && message.content.startsWith(marker);
}
