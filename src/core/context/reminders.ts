import { loadTemplateSections, renderTemplate } from '../templates';

/**
 * Short messages injected at the point of decision (paper §2.3.4). They live in
 * `templates/reminders.md` as sections headed `--- name ---`. A missing reminder is skipped
 * (undefined), never an error: the agent degrades to running without it.
 */
export function getReminder(name: string, vars: Record<string, string> = {}): string | undefined {
  const section = loadTemplateSections('reminders.md').get(name);
  return section === undefined ? undefined : renderTemplate(section, vars);
}
