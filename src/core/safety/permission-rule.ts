import * as z from 'zod';
import type { CommandPart } from './command-part';
import { escapeRegex } from '../escape-regex';
import { wholePathGlob } from '../files/path-globs';

/**
 * Permission rules (§2.4.1). Four kinds:
 * - `pattern`: a glob (`*`, `**`, `?`) or a `/regex/flags` over the tool's argument (each simple
 *   command of a command line, the workspace-relative path of a file a tool writes, the JSON arguments otherwise);
 * - `command`: one exact simple command;
 * - `prefix`: a command prefix, word-bounded (`git log` matches `git log -5`, not `git logout`);
 * - `danger`: a glob or regex that always refuses, at priority 100 like the built-in danger rules.
 * Each has an action, a priority (0–99; 100 belongs to danger rules) and a source. The first match
 * in priority order wins (ties: session, project, user, default; then the longer pattern; then the
 * stricter action).
 */
export type RuleAction = 'allow' | 'ask' | 'deny';
export type RuleType = 'pattern' | 'command' | 'prefix' | 'danger';
export type RuleSource = 'default' | 'user' | 'project' | 'session';

export const DANGER_PRIORITY = 100;
export const DEFAULT_RULE_PRIORITY = 50;

export interface PermissionRule {
  id: string;
  type: RuleType;
  /** A glob over tool names; absent (a file leaves it out): the rule is about commands, whichever tool runs them. */
  tool?: string;
  /** Absent on a pattern rule: every call of the tool. */
  pattern?: string;
  action: RuleAction;
  priority: number;
  source: RuleSource;
  /** An allow that also covers writing files by redirection (`>`, `>>`, `tee`). */
  redirects?: boolean;
  /** Only in this workspace (rules remembered from "Always allow" carry it). */
  workspace?: string;
  /**
   * Built-in rules only (never read from a file): a check on the simple command as the shell reader
   * parsed it, instead of the pattern (which then only describes the rule).
   */
  test?: (part: CommandPart) => boolean;
}

/** What a rule is matched against. */
export interface RuleSubject {
  /** The tool making the call; absent when a command is judged on its own. */
  tool?: string;
  /** A command line or one of its simple commands (rules without a tool are about these). */
  command?: true;
  /** Texts an allow may match: the command as written (and without wrappers when it sets no variables). */
  exact: readonly string[];
  /** Texts a deny or ask also looks at: the command past assignments and wrappers, the program without its folder. */
  loose: readonly string[];
  /** File tools: `*` stops at `/` (use `**` to cross folders). */
  paths?: boolean;
  /** A simple command itself, for rules that check its words (`test`). */
  part?: CommandPart;
}

const REGEX = /^\/(.+)\/([gimsuy]*)$/;

// This file's schemas are built on their first parse (z.lazy): a start-up that reads none of its records does not pay for them.
/** One rule as written in permissions.json. */
export const ruleEntrySchema = z.lazy(() => z
  .object({
    id: z.string().min(1).optional(),
    type: z.enum(['pattern', 'command', 'prefix', 'danger']),
    tool: z.string().min(1).optional(),
    pattern: z.string().min(1).optional(),
    action: z.enum(['allow', 'ask', 'deny']).optional(),
    priority: z.number().int().min(0).max(99).optional(),
    redirects: z.boolean().optional(),
    workspace: z.string().min(1).optional(),
    created: z.string().optional(),
    note: z.string().optional(),
  })
  .strict()
  .superRefine((rule, ctx) => {
    if (rule.type !== 'pattern' && rule.pattern === undefined) ctx.addIssue({ code: 'custom', message: `a ${rule.type} rule needs a pattern` });
    if (rule.type === 'pattern' && rule.pattern === undefined && rule.tool === undefined) ctx.addIssue({ code: 'custom', message: 'a pattern rule needs a pattern or a tool' });
    if (rule.type !== 'danger' && rule.action === undefined) ctx.addIssue({ code: 'custom', message: 'an action (allow, ask or deny) is missing' });
    if (rule.type === 'danger' && rule.action !== undefined && rule.action !== 'deny') ctx.addIssue({ code: 'custom', message: 'a danger rule always denies' });
    const regex = rule.pattern !== undefined && (rule.type === 'pattern' || rule.type === 'danger') ? REGEX.exec(rule.pattern) : null;
    if (regex) {
      try {
        new RegExp(regex[1]!, regex[2]);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: `invalid regular expression: ${(err as Error).message}` });
      }
    }
  }));
export type RuleEntry = z.infer<typeof ruleEntrySchema>;

export function ruleFromEntry(entry: RuleEntry, source: RuleSource): PermissionRule {
  const danger = entry.type === 'danger';
  const rule: PermissionRule = {
    id: entry.id ?? `${source}:${entry.type}:${entry.tool ? `${entry.tool} ` : ''}${entry.pattern ?? '*'}`,
    type: entry.type,
    ...(entry.tool ? { tool: entry.tool } : {}),
    action: danger ? 'deny' : entry.action!,
    priority: danger ? DANGER_PRIORITY : (entry.priority ?? DEFAULT_RULE_PRIORITY),
    source,
  };
  if (entry.pattern !== undefined) rule.pattern = entry.pattern;
  if (entry.redirects) rule.redirects = true;
  if (entry.workspace) rule.workspace = entry.workspace;
  return rule;
}

export function ruleMatches(rule: PermissionRule, subject: RuleSubject): boolean {
  const tool = rule.tool === undefined ? subject.command === true : subject.tool !== undefined && glob(rule.tool, false, false)(subject.tool);
  if (!tool) return false;
  if (rule.test) return subject.part !== undefined && rule.test(subject.part);
  if (rule.pattern === undefined) return true;
  const strict = rule.action === 'allow';
  const texts = strict ? subject.exact : [...subject.exact, ...subject.loose];
  const test = matcher(rule, !strict, subject.paths === true);
  return texts.some(test);
}

function matcher(rule: PermissionRule, ignoreCase: boolean, paths: boolean): (text: string) => boolean {
  const pattern = rule.pattern!;
  const fold = (t: string) => (ignoreCase ? t.toLowerCase() : t);
  switch (rule.type) {
    case 'command':
      return (text) => fold(text.trim()) === fold(pattern.trim());
    case 'prefix': {
      const prefix = fold(pattern.trim());
      return (text) => {
        const t = fold(text.trim());
        return t === prefix || (t.startsWith(prefix) && /\s/.test(t[prefix.length] ?? ''));
      };
    }
    default: {
      const regex = REGEX.exec(pattern);
      if (regex) {
        const re = new RegExp(regex[1]!, ignoreCase && !regex[2]!.includes('i') ? `${regex[2]}i` : regex[2]);
        return (text) => re.test(text.trim());
      }
      const test = glob(pattern, paths, ignoreCase);
      return (text) => test(text.trim());
    }
  }
}

const globs = new Map<string, (text: string) => boolean>();

/**
 * A rule's glob, compiled once. Over a path, the path globs of list_files and search (picomatch;
 * `*` stays within a folder). Over other text (a command line, a tool name, JSON arguments), a
 * wildcard: `*` any run of characters, `/` included, `?` one, the rest literal.
 */
function glob(pattern: string, paths: boolean, ignoreCase: boolean): (text: string) => boolean {
  const key = `${paths ? 'p' : 't'}${ignoreCase ? 'i' : 's'}${pattern}`;
  let test = globs.get(key);
  if (!test) {
    if (paths) test = wholePathGlob(pattern, { nocase: ignoreCase });
    else {
      const re = new RegExp(`^${[...pattern].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : escapeRegex(c))).join('')}$`, ignoreCase ? 'is' : 's');
      test = (text) => re.test(text);
    }
    globs.set(key, test);
  }
  return test;
}

const SOURCE_RANK: Record<RuleSource, number> = { session: 3, project: 2, user: 1, default: 0 };
const STRICTNESS: Record<RuleAction, number> = { deny: 2, ask: 1, allow: 0 };

/** Priority order: the first rule that matches decides. */
export function compareRules(a: PermissionRule, b: PermissionRule): number {
  return (
    b.priority - a.priority ||
    SOURCE_RANK[b.source] - SOURCE_RANK[a.source] ||
    (b.pattern?.length ?? 0) - (a.pattern?.length ?? 0) ||
    STRICTNESS[b.action] - STRICTNESS[a.action]
  );
}

/** Rules that are "the same pattern" (a project rule replaces a user rule with the same key). */
export function ruleKey(rule: Pick<PermissionRule, 'type' | 'tool' | 'pattern'>): string {
  return `${rule.type}\u0000${rule.tool ?? ''}\u0000${rule.pattern ?? ''}`;
}
