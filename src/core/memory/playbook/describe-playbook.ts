import type { Playbook } from './bullet';

/** The playbook for the user (/playbook): where it is and every bullet with its counters, by section. */
export function describePlaybook(path: string, playbook: Playbook): string {
  const lines = [`Playbook: ${path}`];
  if (playbook.bullets.length === 0) {
    lines.push('No bullets yet: the agent adds lessons here as it works on this project.');
  } else {
    const sections = [...new Set(playbook.bullets.map((b) => b.section))];
    for (const section of sections) {
      lines.push(`${section}:`);
      for (const b of playbook.bullets.filter((x) => x.section === section)) {
        lines.push(`  [${b.id}] ${b.content}  (helpful ${b.helpful}, harmful ${b.harmful}, neutral ${b.neutral})`);
      }
    }
  }
  lines.push('Edit the file to change, add or remove bullets; the agent picks up your edits at its next turn.');
  return lines.join('\n');
}
