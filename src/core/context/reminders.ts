import { loadTemplate, renderTemplate } from '../templates';

/**
 * Short messages injected at the point of decision (paper §2.3.4). They live in
 * `templates/reminders.md` as sections headed `--- name ---`. A missing reminder is skipped
 * (undefined), never an error: the agent degrades to running without it.
 */
export function getReminder(name: string, vars: Record<string, string> = {}): string | undefined {
  const section = reminderSections().get(name);
  return section === undefined ? undefined : renderTemplate(section, vars);
}

let parsed: Map<string, string> | undefined;

function reminderSections(): Map<string, string> {
  if (parsed) return parsed;
  parsed = new Map();
  const text = loadTemplate('reminders.md') ?? '';
  let name: string | undefined;
  let lines: string[] = [];
  const flush = () => {
    if (name) parsed!.set(name, lines.join('\n').trim());
  };
  for (const line of text.split('\n')) {
    const header = /^--- ([a-z0-9_]+) ---$/.exec(line.trim());
    if (header) {
      flush();
      name = header[1];
      lines = [];
    } else lines.push(line);
  }
  flush();
  return parsed;
}
