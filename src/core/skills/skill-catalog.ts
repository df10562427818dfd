import { skillKey, type Skill, type SkillSummary, type SkillTier } from './skill';

/** A folder skills are read from, and the tier its skills belong to. */
export interface SkillFolder {
  tier: SkillTier;
  dir: string;
}

/** Longest description the prompt's index shows per skill; the whole one is in /skills. */
const INDEX_DESCRIPTION_CHARS = 250;

/**
 * The skills an agent build found, after precedence: what the prompt's index lists, what
 * invoke_skill loads and /skills shows. Built once per agent; a changed file counts from the next
 * chat (or /clear in the CLI).
 */
export class SkillCatalog {
  private readonly byKey: ReadonlyMap<string, Skill>;
  readonly skills: readonly Skill[];

  constructor(
    skills: readonly Skill[],
    /** Files skipped or partly ignored, each naming the file and why. */
    readonly warnings: readonly string[] = [],
    /** Where skills were looked for, lowest precedence first. */
    readonly folders: readonly SkillFolder[] = [],
  ) {
    this.skills = [...skills].sort((a, b) => a.name.localeCompare(b.name));
    this.byKey = new Map(this.skills.map((s) => [skillKey(s.name), s]));
  }

  get size(): number {
    return this.skills.length;
  }

  /** By name, ignoring case. */
  get(name: string): Skill | undefined {
    return this.byKey.get(skillKey(name));
  }

  /** Name and a short description per skill, for the system prompt's index. */
  summaries(): SkillSummary[] {
    return this.skills.map((s) => ({
      name: s.name,
      description: s.description.length > INDEX_DESCRIPTION_CHARS ? `${s.description.slice(0, INDEX_DESCRIPTION_CHARS - 1).trimEnd()}…` : s.description,
    }));
  }

  /** Every skill's name, the closest to `name` first (for a mistyped name). */
  namesClosestTo(name: string): string[] {
    const wanted = skillKey(name);
    const score = (candidate: string) => {
      const key = skillKey(candidate);
      // A name that contains the other (or is contained) is closer than any edit distance says.
      const related = key.includes(wanted) || wanted.includes(key) ? -100 : 0;
      return related + editDistance(key, wanted);
    };
    return this.skills.map((s) => s.name).sort((a, b) => score(a) - score(b) || a.localeCompare(b));
  }

  /** The folders of folder-layout skills: read_file may read their supporting files. */
  skillDirs(): string[] {
    return this.skills.flatMap((s) => (s.folder ? [s.folder] : []));
  }
}

/** Levenshtein distance (names are short: at most 64 characters). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
