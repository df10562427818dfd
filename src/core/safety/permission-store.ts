import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import * as z from 'zod';
import { opendevPaths } from '../config/opendev-home';
import { mkdirPrivate, PRIVATE_FILE_MODE } from '../config/private-files';
import { writeFileAtomic } from '../files/atomic-write';
import { DEFAULT_CAUTION_RULES } from './default-rules';
import { compareRules, ruleEntrySchema, ruleFromEntry, ruleKey, type PermissionRule, type RuleEntry, type RuleSource } from './permission-rule';
import { SerialQueue } from '../serial-queue';

/**
 * The permission rules of one workspace: the built-in caution rules, the user's
 * `OPENDEV_HOME/permissions.json`, the project's `<workspace>/.opendev/permissions.json` (a project
 * rule replaces a user rule with the same type, tool and pattern) and what "Always allow" added.
 *
 * A file that is not valid JSON, or not `{ "rules": [...] }`, is reported and ignored, and never
 * rewritten; an invalid rule is reported and skipped, the others apply. "Always allow" answers go
 * to the USER file (temp file + rename), scoped to this workspace with `workspace`: the project file
 * belongs to the repository (shared with the team, and writable by the agent), so it is never
 * written here.
 */
const fileSchema = z.object({ rules: z.array(z.unknown()) }).passthrough();

export interface PermissionFileLoad {
  rules: PermissionRule[];
  warnings: string[];
}

export class PermissionStore {
  private readonly session: PermissionRule[] = [];
  private sorted?: PermissionRule[];
  private readonly writing = new SerialQueue();

  private constructor(
    readonly workspaceRoot: string,
    private readonly fileRules: PermissionRule[],
    /** Problems found while loading, for the user. */
    readonly warnings: readonly string[],
    private readonly userFile?: string,
  ) {}

  /**
   * `projectTrusted`: the user trusts the folder's configuration (core/trust). Until then the
   * project's file may only make things stricter: its ask, deny and danger rules apply, its allow
   * rules do not.
   */
  static load(options: { home: string; workspaceRoot: string; projectTrusted?: boolean }): PermissionStore {
    const userFile = opendevPaths(options.home).permissionsFile;
    const user = readPermissionsFile(userFile, 'user');
    const project = projectRules(options.workspaceRoot, options.projectTrusted ?? false);
    const here = resolve(options.workspaceRoot);
    // Only a trusted project's rule replaces the user's rule of the same kind: an untrusted one adds.
    const projectKeys = new Set(options.projectTrusted ? project.rules.map(ruleKey) : []);
    const userRules = user.rules.filter((r) => (r.workspace === undefined || resolve(r.workspace) === here) && !projectKeys.has(ruleKey(r)));
    return new PermissionStore(options.workspaceRoot, [...userRules, ...project.rules], [...user.warnings, ...project.warnings], userFile);
  }

  /** Rules that live only in memory (tests, and runs without an OpenDev home). */
  static inMemory(workspaceRoot: string, rules: readonly PermissionRule[] = []): PermissionStore {
    return new PermissionStore(workspaceRoot, [...rules], []);
  }

  /** Every rule in priority order (the first that matches decides). */
  rules(): readonly PermissionRule[] {
    this.sorted ??= [...DEFAULT_CAUTION_RULES, ...this.fileRules, ...this.session].sort(compareRules);
    return this.sorted;
  }

  /**
   * Adds rules from an "Always allow" answer: at once for this session, then to the user file.
   * Resolves to a warning when they could not be saved (they still hold for the session).
   */
  remember(entries: readonly RuleEntry[]): Promise<string | undefined> {
    for (const entry of entries) this.session.push(ruleFromEntry(entry, 'session'));
    this.sorted = undefined;
    if (!this.userFile || entries.length === 0) return Promise.resolve(undefined);
    const file = this.userFile;
    return this.writing.run(() => appendRules(file, entries));
  }
}

/** The project's rules as they may apply: all once trusted, else all but the allow rules (listed in `untrusted`). */
export function projectRules(workspaceRoot: string, trusted: boolean): PermissionFileLoad & { untrusted: PermissionRule[] } {
  const read = readPermissionsFile(projectPermissionsFile(workspaceRoot), 'project');
  if (trusted) return { ...read, untrusted: [] };
  return { rules: read.rules.filter((r) => r.action !== 'allow'), warnings: read.warnings, untrusted: read.rules.filter((r) => r.action === 'allow') };
}

export function projectPermissionsFile(workspaceRoot: string): string {
  return join(workspaceRoot, '.opendev', 'permissions.json');
}

/** Reads one permissions file; a missing file is no rules, anything wrong is a warning. */
export function readPermissionsFile(file: string, source: RuleSource): PermissionFileLoad {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { rules: [], warnings: code === 'ENOENT' ? [] : [`Could not read ${file} (${code ?? (err as Error).message}); its permission rules are not applied.`] };
  }
  const parsed = parseFile(text);
  if (typeof parsed === 'string') return { rules: [], warnings: [`${file} ${parsed}; its permission rules are ignored until it is fixed (the file is left as it is).`] };
  const rules: PermissionRule[] = [];
  const warnings: string[] = [];
  parsed.rules.forEach((raw, i) => {
    const entry = ruleEntrySchema.safeParse(raw);
    if (entry.success) rules.push(ruleFromEntry(entry.data, source));
    else warnings.push(`${file}: rule ${i + 1} is ignored: ${entry.error.issues.map((issue) => `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`).join('; ')}.`);
  });
  return { rules, warnings };
}

function parseFile(text: string): z.infer<typeof fileSchema> | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return `is not valid JSON (${(err as Error).message})`;
  }
  const file = fileSchema.safeParse(json);
  return file.success ? file.data : 'is not of the form { "rules": [ … ] }';
}

/** Appends rules to the user file (re-read first, so rules added elsewhere are kept); never rewrites a damaged file. */
async function appendRules(file: string, entries: readonly RuleEntry[]): Promise<string | undefined> {
  try {
    let text: string | undefined;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const parsed = text === undefined ? { rules: [] } : parseFile(text);
    if (typeof parsed === 'string') return `${file} ${parsed}, so "Always allow" holds for this session only; fix the file and the next answer is saved.`;
    const present = new Set(parsed.rules.map(entryKey));
    for (const entry of entries) {
      if (present.has(entryKey(entry))) continue;
      parsed.rules.push(entry);
      present.add(entryKey(entry));
    }
    await mkdirPrivate(dirname(file));
    await writeFileAtomic(file, `${JSON.stringify(parsed, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
    return undefined;
  } catch (err) {
    return `Could not save "Always allow" to ${file} (${(err as Error).message}); it holds for this session only.`;
  }
}

function entryKey(raw: unknown): string {
  const entry = ruleEntrySchema.safeParse(raw);
  if (!entry.success) return JSON.stringify(raw);
  return `${ruleKey({ type: entry.data.type, tool: entry.data.tool, pattern: entry.data.pattern })}\u0000${entry.data.workspace ?? ''}`;
}
