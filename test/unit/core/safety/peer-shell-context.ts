/**
 * The peer shell corpus (`test/fixtures/peer/shell_cases/`) turned into OUR terms: each case's
 * own context (Cline's allow/deny globs, Roo's allow/deny prefixes, Gemini's policy rules, Codex's
 * safe-list function) becomes permission rules and an approval level, and its expectation one of
 * allow / ask / block (or "anything but X" where the peer's function only answers yes or no).
 * Cases that are not a decision on one command line (prefix lookups, lists) are left out, with why.
 */
import { readFileSync } from 'node:fs';
import { peerDataPath } from '../../../helpers/peer-data';
import type { ApprovalLevel } from '../../../../src/core/config/approval-level';
import { DEFAULT_CAUTION_RULES } from '../../../../src/core/safety/default-rules';
import { compareRules, type PermissionRule, type RuleAction, type RuleType } from '../../../../src/core/safety/permission-rule';

export type Expected = 'allow' | 'ask' | 'block' | 'not-allow' | 'not-block' | 'not-ask';
export type Outcome = 'allow' | 'ask' | 'block';

export interface ContextCase {
  id: string;
  command: string;
  level: ApprovalLevel;
  /** Sorted, with the built-in caution rules (they are always on for us). */
  rules: PermissionRule[];
  expected: Expected;
}

export interface PeerFile {
  cases: ContextCase[];
  leftOut: Array<{ id: string; why: string }>;
}

export function peerShellFile(name: string): string {
  return peerDataPath('shell_cases', name);
}

export function readPeerCases<T>(name: string): T[] {
  return (JSON.parse(readFileSync(peerShellFile(name), 'utf8')) as { cases: T[] }).cases;
}

type Raw = Record<string, unknown> & { id: string; command: unknown };

/** The five files: the four peers in their own formats, and the flattened ALL_commands.json. */
export function peerFile(name: string): PeerFile {
  const out: PeerFile = { cases: [], leftOut: [] };
  for (const raw of readPeerCases<Raw>(name)) {
    const mapped = name === 'ALL_commands.json' ? fromFlattened(raw) : FROM[name]!(raw);
    if (typeof mapped === 'string') out.leftOut.push({ id: raw.id, why: mapped });
    else out.cases.push(mapped);
  }
  return out;
}

const FROM: Record<string, (raw: Raw) => ContextCase | string> = {
  'cline_command_permissions.json': (raw) => cline(raw, raw.config, raw.expected as string),
  'roo_command_validation.json': roo,
  'codex_safe_and_dangerous.json': (raw) => codex(raw, raw.function as string, raw.expected as string),
  'gemini_policy_shell.json': (raw) => gemini(raw, raw.policy as GeminiPolicy, raw.expected as string),
};

function fromFlattened(raw: Raw): ContextCase | string {
  const context = raw.context as Record<string, unknown> & { engine: string };
  const expected = raw.expected as string;
  switch (context.engine) {
    case 'cline':
      return cline(raw, context.config, expected);
    case 'codex':
      return codex(raw, context.function as string, expected);
    case 'gemini':
      return gemini(raw, context.policy as GeminiPolicy, expected);
    default:
      if (context.check === 'containsDangerousSubstitution') return rooSubstitution(raw, expected === 'ask');
      return rooLists(raw, context.allowlist as string[], context.denylist as string[], expected as Expected);
  }
}

let counter = 0;
function rule(type: RuleType, pattern: string, action: RuleAction, extra: Partial<PermissionRule> = {}): PermissionRule {
  return { id: `peer-${++counter}:${type}:${pattern}`, type, pattern, action, priority: 50, source: 'user', ...extra };
}
function make(raw: Raw, level: ApprovalLevel, rules: PermissionRule[], expected: Expected): ContextCase {
  return { id: raw.id, command: raw.command as string, level, rules: [...DEFAULT_CAUTION_RULES, ...rules].sort(compareRules), expected };
}
const BLOCK = (e: string): Expected => (e === 'block' ? 'block' : (e as Expected));

/** Cline: whole-command globs; no (valid) config allows everything (our Auto); with allow globs, anything unmatched is refused. */
function cline(raw: Raw, config: unknown, expected: string): ContextCase {
  const c = typeof config === 'object' && config !== null ? (config as Record<string, unknown>) : {};
  const allow = Array.isArray(c.allow) ? (c.allow as string[]) : [];
  const deny = Array.isArray(c.deny) ? (c.deny as string[]) : [];
  const redirects = c.allowRedirects === true;
  const rules = [
    ...allow.map((g) => rule('pattern', g, 'allow', redirects ? { redirects } : {})),
    ...deny.map((g) => rule('pattern', g, 'deny')),
    ...(allow.length > 0 ? [rule('pattern', '*', 'deny', { priority: 0 })] : []),
  ];
  return make(raw, 'auto', rules, BLOCK(expected));
}

/** Roo: allow and deny prefixes, anything else asks (our Manual). */
function rooLists(raw: Raw, allow: readonly string[] | null, deny: readonly string[] | null, expected: Expected): ContextCase {
  const toRule = (p: string, action: RuleAction) => (p === '*' ? rule('pattern', '*', action) : rule('prefix', p, action));
  return make(raw, 'manual', [...(allow ?? []).map((p) => toRule(p, 'allow')), ...(deny ?? []).map((p) => toRule(p, 'deny'))], expected);
}

/** Roo's containsDangerousSubstitution: true forces an ask even when everything is allow-listed. */
function rooSubstitution(raw: Raw, flagged: boolean): ContextCase {
  return rooLists(raw, ['*'], [], flagged ? 'ask' : 'allow');
}

function roo(raw: Raw): ContextCase | string {
  const fn = raw.function as string;
  const yes = raw.expected_raw === true;
  const ctor = raw.validator_ctor_args as [string[], string[]] | undefined;
  const args = raw.args_raw as [string[], string[] | null] | undefined;
  if (typeof raw.command !== 'string') return 'a list of commands, not one command line';
  switch (fn) {
    case 'containsDangerousSubstitution':
      return rooSubstitution(raw, yes);
    case 'isAutoApprovedSingleCommand':
      return rooLists(raw, args![0], args![1], yes ? 'allow' : 'not-allow');
    case 'isAutoDeniedSingleCommand':
      return rooLists(raw, args![0], args![1], yes ? 'block' : 'not-block');
    case 'getSingleCommandDecision':
    case 'getCommandDecision':
      return rooLists(raw, raw.allowlist as string[], (raw.denylist as string[]) ?? [], raw.expected as Expected);
    case 'CommandValidator.validateCommand':
      return rooLists(raw, ctor![0], ctor![1], raw.expected as Expected);
    case 'CommandValidator.isAutoApproved':
      return rooLists(raw, ctor![0], ctor![1], yes ? 'allow' : 'not-allow');
    case 'CommandValidator.isAutoDenied':
      return rooLists(raw, ctor![0], ctor![1], yes ? 'block' : 'not-block');
    case 'CommandValidator.requiresUserInput':
      return rooLists(raw, ctor![0], ctor![1], yes ? 'ask' : 'not-ask');
    case 'CommandValidator.getValidationDetails': {
      const decision = Array.isArray(raw.expected_raw) ? (raw.expected_raw as Array<{ field: string; value: unknown }>).find((a) => a.field === 'decision')?.value : raw.expected_raw;
      const map: Record<string, Expected> = { auto_approve: 'allow', auto_deny: 'block', ask_user: 'ask' };
      return typeof decision === 'string' && map[decision] ? rooLists(raw, ctor![0], ctor![1], map[decision]!) : 'no decision asserted';
    }
    default:
      return `${fn} is not a decision on a command`;
  }
}

/** Codex: the safe list is our Semi-Auto; "might be dangerous → always prompt" must ask even in Auto. */
function codex(raw: Raw, fn: string, expected: string): ContextCase {
  if (fn === 'command_might_be_dangerous') return make(raw, 'auto', [], expected === 'not-dangerous' ? 'allow' : 'ask');
  if (fn.startsWith('requires_initial_approval')) return make(raw, 'auto', [], expected as Expected);
  return make(raw, 'semi-auto', [], expected as Expected);
}

interface GeminiPolicy {
  default: 'ASK_USER' | 'ALLOW';
  rules: Array<{ allow_prefix?: string; deny_prefix?: string; ask_prefix?: string; deny_exact_command?: string; allowRedirection?: boolean }>;
}

/** Gemini: word-bounded prefix rules; the default decision is our level (ASK_USER = Manual, ALLOW = Auto). */
function gemini(raw: Raw, policy: GeminiPolicy, expected: string): ContextCase {
  const rules = policy.rules.map((r) => {
    if (r.allow_prefix !== undefined) return rule('prefix', r.allow_prefix, 'allow', r.allowRedirection ? { redirects: true } : {});
    if (r.deny_prefix !== undefined) return rule('prefix', r.deny_prefix, 'deny');
    if (r.ask_prefix !== undefined) return rule('prefix', r.ask_prefix, 'ask');
    return rule('command', r.deny_exact_command!, 'deny');
  });
  return make(raw, policy.default === 'ALLOW' ? 'auto' : 'manual', rules, expected as Expected);
}

/**
 * Our outcome against the expectation: `stricter` (we ask or refuse where the peer lets it run, or
 * refuse where it asks), `asks` (we ask where the peer refuses: still never runs unasked), `looser`
 * (we run without asking what the peer would not).
 */
export type Agreement = 'agree' | 'stricter' | 'asks' | 'looser';

export function compare(expected: Expected, ours: Outcome): Agreement {
  if (expected.startsWith('not-')) {
    const not = expected.slice(4) as Outcome;
    if (ours !== not) return 'agree';
    return not === 'allow' ? 'looser' : 'stricter';
  }
  if (ours === expected) return 'agree';
  if (ours === 'allow') return 'looser';
  if (ours === 'ask' && expected === 'block') return 'asks';
  return 'stricter';
}
