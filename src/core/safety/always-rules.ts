import { programOf } from '../process/command-program';
import { outputWrites, type CommandPart } from './command-part';
import type { Judgement, PartVerdict } from './judgement';
import { DEFAULT_RULE_PRIORITY, type RuleEntry } from './permission-rule';
import type { ApprovalSubject } from '../tools/approval-subject';

/**
 * The rules an "Always allow" answer leaves behind, scoped to the workspace. For a command, one
 * per part that asked: a plain command is remembered by its program (and subcommand: `git status`,
 * `npm run build`), so `echo one` covers `echo two`; a part that writes by redirection, or that a
 * rule asks about, is remembered exactly, above the asking rule. Other tools are remembered by name.
 * What the workspace boundary or a hidden expansion asks about still asks next time.
 */
const SUBCOMMAND_TOOLS = new Set([
  'git', 'npm', 'pnpm', 'yarn', 'bun', 'npx', 'pnpx', 'deno', 'cargo', 'go', 'docker', 'podman', 'kubectl', 'helm', 'gh', 'pip', 'pip3',
  'poetry', 'uv', 'dotnet', 'mvn', 'gradle', 'brew', 'terraform', 'conda', 'composer', 'bundle', 'rustup', 'make', 'just', 'apt', 'apt-get',
]);
const SCRIPT_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
const WORD = /^[a-z][\w:.@/-]*$/i;

export function rulesForAlways(toolName: string, about: ApprovalSubject['kind'], judgement: Judgement, workspaceRoot: string, now = new Date()): RuleEntry[] {
  const stamp = { workspace: workspaceRoot, created: now.toISOString() };
  if (about !== 'command') return [{ type: 'pattern', tool: toolName, action: 'allow', ...stamp }];
  const out: RuleEntry[] = [];
  for (const verdict of judgement.parts ?? []) {
    if (verdict.action !== 'ask') continue;
    out.push({ ...partRule(verdict), ...stamp });
  }
  return out;
}

function partRule(v: PartVerdict): RuleEntry {
  // Only redirections and the like make the rule exact: what a program does with its operands (mkdir, touch) is the program's.
  const redirected = outputWrites(v.part).length > 0;
  const prefix = v.decidedBy === 'level' && !redirected ? prefixOf(v.part) : undefined;
  if (prefix) return { type: 'prefix', pattern: prefix, action: 'allow' };
  const priority = Math.min(99, Math.max(DEFAULT_RULE_PRIORITY, (v.rule?.priority ?? 0) + 1));
  return {
    type: 'command',
    pattern: v.part.text,
    action: 'allow',
    ...(priority !== DEFAULT_RULE_PRIORITY ? { priority } : {}),
    ...(redirected ? { redirects: true } : {}),
  };
}

/** `git status -s` → `git status`; `npm run build` → `npm run build`; `ls -la` → `ls`. */
function prefixOf(part: CommandPart): string | undefined {
  const { name, args, assignments } = programOf(part.words);
  if (assignments || !WORD.test(name)) return undefined;
  const words = [name];
  if (SUBCOMMAND_TOOLS.has(name) && WORD.test(args[0] ?? '')) {
    words.push(args[0]!);
    if (SCRIPT_RUNNERS.has(name) && args[0] === 'run' && WORD.test(args[1] ?? '')) words.push(args[1]!);
  }
  return words.join(' ');
}
