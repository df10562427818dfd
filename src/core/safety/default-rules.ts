import type { CommandPart } from './command-part';
import { inlineCodeDeletes, isForcePush, runsUnseenProgram } from './command-checks';
import type { PermissionRule } from './permission-rule';

/**
 * Built-in rules that ask before commands which lose work, send data away or change protected
 * configuration (git config, paths in .git/, .opendev/, .claude/, .vscode/, .mcp.json), whatever the
 * level (Codex prompts for `git reset`, `git rm` and forced pushes even when everything else runs).
 * Priority 90: a user or project rule overrides one only on purpose (priority above 90). The
 * refusals (`rm -rf /`, sudo, pipes into shells…) are the danger rules (process/danger-gate.ts),
 * at priority 100, which nothing overrides.
 */
export const CAUTION_PRIORITY = 90;
/**
 * Above the caution rules, so a command that is both (`rm -rf .opendev`) is judged as the change to
 * protected configuration it is: a headless run never approves those, whatever its flags.
 */
export const PROTECTED_PRIORITY = 91;
/** `rm -r` asks at every level unless a rule of the user's says otherwise (a project's deny of `rm -rf` stays a deny). */
export const RECURSIVE_DELETE_PRIORITY = 40;

const GIT = String.raw`^git(?:\s+(?:-C\s+\S+|-c\s*\S+|--[\w-]+(?:=\S+)?))*\s+`;

const caution = (id: string, pattern: string, priority = CAUTION_PRIORITY): PermissionRule => ({ id: `default:${id}`, type: 'pattern', pattern, action: 'ask', priority, source: 'default' });
/** A caution rule that checks the parsed command (the pattern only describes it). */
const check = (id: string, describes: string, test: (part: CommandPart) => boolean): PermissionRule => ({ ...caution(id, describes), test });

/** Programs that write, move or delete the paths they are given (or run code that may). */
const WRITERS = 'cp|mv|ln|install|rsync|touch|chmod|chown|chgrp|truncate|rm|rmdir|mkdir|unlink|shred|dd|sed|perl|patch|tar|unzip|curl|wget|python3?|node|ruby';
/** A path into what configures the repository, the agent or the editor (as workspace-boundary.ts protects it; plan files excepted). */
const PROTECTED_PATH = String.raw`(?:^|[\s=:'"/(,])(?:\.git|\.opendev(?!/plans/[^/\s'"]+\.md)|\.claude|\.vscode|\.mcp\.json)(?=[/\s'"),]|$)`;
/** `git config` that only reads: `--get…`, `-l`/`--list`, `get`/`list`, or a key alone. */
const GIT_CONFIG_READ = String.raw`(?!\s*(?:(?:--(?:local|global|system|worktree|show-origin|show-scope|includes|no-includes|null|name-only|bool|int|path|type=\S+)|-z|(?:--file|-f|--blob)[=\s]\S+)\s+)*(?:--get(?:-all|-regexp|-urlmatch|-color(?:bool)?)?|-l|--list|get|list)(?:\s|$))(?!\s*[\w.-]+\s*$)`;

export const DEFAULT_CAUTION_RULES: readonly PermissionRule[] = [
  caution('git-discard', `/${GIT}(?:reset|clean|rm|restore|checkout\\s+(?:-f\\b|--force\\b|--\\s|\\.$))/`),
  check('git-force-push', 'git push --force|--force-with-lease|--force-if-includes|--mirror|--delete|-d|--prune|+ref|:ref', (p) => isForcePush(p.words)),
  // The program comes from a pipe whose text the line does not show (a download or decoded blob is refused outright).
  check('pipe-to-interpreter', '… | sh, … | python3 (a program read from a pipe)', runsUnseenProgram),
  check('inline-code-delete', 'python3 -c / node -e / perl -e … code that deletes files', inlineCodeDeletes),
  caution('git-delete-branch', `/${GIT}(?:branch\\s+(?:.*\\s)?-D\\b|stash\\s+(?:drop|clear)\\b|reflog\\s+expire\\b|gc\\s+.*--prune=now)/`),
  caution('network-pipe', String.raw`/^(?:nc|ncat|netcat|socat|telnet)(?:\s|$)/`),
  // Below the users' own rules (50 by default): their `rm` rule, allow or deny, decides first.
  caution('recursive-delete', String.raw`/^rm\s(?:.*\s)?(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)(?:\s|$)/`, RECURSIVE_DELETE_PRIORITY),
  // Writing .git/config (core.hooksPath, core.fsmonitor, aliases, filters) makes git run programs later.
  caution('git-config-write', `/${GIT}config(?:\\s|$)${GIT_CONFIG_READ}/`, PROTECTED_PRIORITY),
  caution('protected-path-write', `/^(?:${WRITERS})(?=\\s).*${PROTECTED_PATH}/`, PROTECTED_PRIORITY),
];

/** The default rules that guard protected configuration (git hooks and config, the agent's and the editor's settings). */
export const PROTECTED_RULE_IDS: ReadonlySet<string> = new Set(['default:git-config-write', 'default:protected-path-write']);
