import type { PermissionRule } from './permission-rule';

/**
 * Built-in rules that ask before commands which lose work or send data away, whatever the level
 * (Codex prompts for `git reset`, `git rm` and forced pushes even when everything else runs).
 * Priority 90: a user or project rule overrides one only on purpose (priority above 90). The
 * refusals (`rm -rf /`, sudo, pipes into shells…) are the danger rules (process/danger-gate.ts),
 * at priority 100, which nothing overrides.
 */
export const CAUTION_PRIORITY = 90;

const GIT = String.raw`^git(?:\s+(?:-C\s+\S+|-c\s*\S+|--[\w-]+(?:=\S+)?))*\s+`;

const caution = (id: string, pattern: string): PermissionRule => ({ id: `default:${id}`, type: 'pattern', tool: 'run_command', pattern, action: 'ask', priority: CAUTION_PRIORITY, source: 'default' });

export const DEFAULT_CAUTION_RULES: readonly PermissionRule[] = [
  caution('git-discard', `/${GIT}(?:reset|clean|rm|restore|checkout\\s+(?:-f\\b|--force\\b|--\\s|\\.$))/`),
  caution('git-force-push', `/${GIT}push\\b.*\\s(?:-f|--force|--force-with-lease|--mirror|--delete|-d)(?:\\s|=|$)/`),
  caution('git-delete-branch', `/${GIT}(?:branch\\s+(?:.*\\s)?-D\\b|stash\\s+(?:drop|clear)\\b|reflog\\s+expire\\b|gc\\s+.*--prune=now)/`),
  caution('network-pipe', String.raw`/^(?:nc|ncat|netcat|socat|telnet)(?:\s|$)/`),
];
