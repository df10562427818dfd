import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { resolveOpendevHome } from '../config/opendev-home';
import { templatesDir } from '../templates';
import { skillKey, type Skill, type SkillTier } from './skill';
import { SkillCatalog, type SkillFolder } from './skill-catalog';
import { parseSkillFile } from './skill-file';

/** A skill file larger than this is skipped: its body would crowd out the conversation. */
export const MAX_SKILL_FILE_BYTES = 100 * 1024;
/** At most this many skills reach the index (by precedence, then name); the rest are reported. */
export const MAX_SKILLS = 100;
/** Entries looked at per skills folder, so a huge folder cannot stall the agent's start. */
const MAX_ENTRIES_PER_FOLDER = 500;
/** The folder layout's file, as Claude Code and other agents name it. */
const SKILL_FILE = 'skill.md';

export interface LoadSkillsOptions {
  workspaceRoot: string;
  /** OPENDEV_HOME; default `$OPENDEV_HOME` or `~/.opendev`. */
  home?: string;
  /** The builtin skills; default `templates/skills/`. */
  builtinDir?: string;
}

/**
 * Where skills are read from, lowest precedence first: the builtin ones (`templates/skills/`), the
 * user's (`<OPENDEV_HOME>/skills/`), then the project's: `.claude/skills/` (skills written for
 * Claude Code travel with the repository) and `.opendev/skills/`, which wins over it.
 */
export function skillFolders(options: LoadSkillsOptions): SkillFolder[] {
  return [
    { tier: 'builtin', dir: options.builtinDir ?? join(templatesDir(), 'skills') },
    { tier: 'user', dir: join(options.home ?? resolveOpendevHome(), 'skills') },
    { tier: 'project', dir: join(options.workspaceRoot, '.claude', 'skills') },
    { tier: 'project', dir: join(options.workspaceRoot, '.opendev', 'skills') },
  ];
}

/**
 * Reads every skill folder: `<name>.md` files and `<name>/SKILL.md` folders. A later folder's skill
 * replaces an earlier one of the same name (project > user > builtin). Never throws: unreadable or
 * invalid files are warnings naming the file and the reason.
 */
export function loadSkills(options: LoadSkillsOptions): SkillCatalog {
  const folders = skillFolders(options);
  const warnings: string[] = [];
  const byKey = new Map<string, Skill>();
  for (const folder of folders) {
    for (const skill of readFolder(folder.dir, folder.tier, warnings)) {
      const key = skillKey(skill.name);
      const earlier = byKey.get(key);
      byKey.set(key, earlier ? { ...skill, overrides: [...earlier.overrides, { tier: earlier.tier, file: earlier.file }] } : skill);
    }
  }
  let skills = [...byKey.values()];
  if (skills.length > MAX_SKILLS) {
    // The project's and the user's own skills are kept before the builtin ones.
    const rank: Record<SkillTier, number> = { project: 0, user: 1, builtin: 2 };
    skills.sort((a, b) => rank[a.tier] - rank[b.tier] || a.name.localeCompare(b.name));
    const dropped = skills.slice(MAX_SKILLS);
    skills = skills.slice(0, MAX_SKILLS);
    warnings.push(`${dropped.length} skill(s) left out: at most ${MAX_SKILLS} are offered (${dropped.slice(0, 5).map((s) => s.name).join(', ')}${dropped.length > 5 ? ', …' : ''})`);
  }
  return new SkillCatalog(skills, warnings, folders);
}

/** The skills of one folder; duplicates within it keep the first (in name order) and are reported. */
function readFolder(dir: string, tier: SkillTier, warnings: string[]): Skill[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') warnings.push(`${dir}: cannot list the skills folder (${(err as Error).message})`);
    return [];
  }
  if (names.length > MAX_ENTRIES_PER_FOLDER) {
    warnings.push(`${dir}: ${names.length} entries; only the first ${MAX_ENTRIES_PER_FOLDER} were read`);
    names = names.slice(0, MAX_ENTRIES_PER_FOLDER);
  }
  const skills: Skill[] = [];
  const seen = new Map<string, string>();
  for (const name of names) {
    if (name.startsWith('.') || /^readme\.md$/i.test(name)) continue;
    const path = join(dir, name);
    const found = skillAt(path, name, tier, warnings);
    if (!found) continue;
    const key = skillKey(found.name);
    const earlier = seen.get(key);
    if (earlier) {
      warnings.push(`${found.file}: skill "${found.name}" is already defined in ${earlier}; this one is ignored`);
      continue;
    }
    seen.set(key, found.file);
    skills.push(found);
  }
  return skills;
}

/** The skill an entry of a skills folder holds: a `.md` file, or a folder with a SKILL.md; else nothing. */
function skillAt(path: string, entry: string, tier: SkillTier, warnings: string[]): Skill | undefined {
  let folder: string | undefined;
  let file = path;
  let defaultName = entry.replace(/\.md$/i, '');
  try {
    const info = statSync(path);
    if (info.isDirectory()) {
      const inside = readdirSync(path).find((n) => n.toLowerCase() === SKILL_FILE);
      if (!inside) {
        warnings.push(`${path}: a folder without a SKILL.md; ignored`);
        return undefined;
      }
      folder = path;
      file = join(path, inside);
      defaultName = entry;
    } else if (!info.isFile() || !/\.md$/i.test(entry)) {
      return undefined;
    }
    const size = statSync(file).size;
    if (size > MAX_SKILL_FILE_BYTES) {
      warnings.push(`${file}: ${Math.round(size / 1024)} KB is over the ${MAX_SKILL_FILE_BYTES / 1024} KB a skill may have; skipped`);
      return undefined;
    }
    const parsed = parseSkillFile(readFileSync(file, 'utf8'), { file, defaultName, tier, ...(folder ? { folder } : {}) });
    warnings.push(...parsed.warnings);
    return parsed.skill;
  } catch (err) {
    warnings.push(`${file}: cannot read (${(err as Error).message})`);
    return undefined;
  }
}
