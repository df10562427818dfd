// Skill files on disk for the skills tests: a workspace, an OPENDEV_HOME and a builtin folder, all temporary.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface SkillDirs {
  workspace: string;
  home: string;
  builtin: string;
}

export function skillDirs(): SkillDirs {
  const root = mkdtempSync(join(tmpdir(), 'opendev-skills-'));
  const dirs = { workspace: join(root, 'ws'), home: join(root, 'home'), builtin: join(root, 'builtin') };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  return dirs;
}

/** The markdown of a skill file. */
export function skillText(name: string | undefined, description: string | undefined, body: string): string {
  const fields = [name !== undefined ? `name: ${name}` : '', description !== undefined ? `description: ${description}` : ''].filter(Boolean);
  return `---\n${fields.join('\n')}\n---\n${body}\n`;
}

/** Writes `text` at `dir/relative`, creating folders. Returns the path. */
export function put(dir: string, relative: string, text: string): string {
  const path = join(dir, relative);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

export const projectSkills = (d: SkillDirs) => join(d.workspace, '.opendev', 'skills');
export const claudeSkills = (d: SkillDirs) => join(d.workspace, '.claude', 'skills');
export const userSkills = (d: SkillDirs) => join(d.home, 'skills');
