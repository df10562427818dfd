import type { ApprovalLevel } from '../config/approval-level';
import type { CommandPart } from './command-part';
import type { PermissionRule, RuleAction, RuleSource } from './permission-rule';
import type { BoundaryKind } from '../files/workspace-boundary';

/** Who settled a call: a danger rule, a permission rule, the approval level, the workspace boundary, the user. */
export type Decider = 'danger' | 'rule' | 'level' | 'boundary' | 'user' | 'unattended';

/** What the rules and the level say about one call, before anyone is asked. */
export interface Judgement {
  action: RuleAction;
  decidedBy: Exclude<Decider, 'user' | 'unattended'>;
  rule?: { id: string; source: RuleSource };
  /** Why it is refused or asks (one clause, for the user and the model). */
  reason?: string;
  /** For a command line: the verdict of every simple command, in the order they are written. */
  parts?: PartVerdict[];
  /** The ask comes from something no "Always allow" may cover (a boundary, a hidden expansion). */
  askAlways?: boolean;
  /** When decidedBy is 'boundary': which side of it (a headless run approves neither without a person or a flag). */
  boundaryKind?: BoundaryKind;
}

export interface PartVerdict {
  part: CommandPart;
  action: RuleAction;
  decidedBy: Judgement['decidedBy'];
  rule?: PermissionRule;
  reason?: string;
  askAlways?: boolean;
  boundaryKind?: BoundaryKind;
}

export interface JudgeContext {
  /** The tool whose call is judged, for rules that name tools; absent, only rules about commands in general apply to a command. */
  tool?: string;
  /** Sorted by priority (compareRules), already limited to this workspace. */
  rules: readonly PermissionRule[];
  level: ApprovalLevel;
  workspaceRoot: string;
  home?: string;
  /** The session's own readable folders (scratch, skills): a command may name them although they sit in the OpenDev home. */
  readableDirs?: readonly string[];
  /**
   * Commands run in the OS sandbox (core/sandbox): what it contains anyway (writes outside the
   * workspace, secret reads, lines that cannot be read) no longer asks at Semi-Auto; rules that ask
   * (caution, protected configuration) and danger rules still do.
   */
  sandboxed?: boolean;
  /**
   * The sandbox is on, but this command runs outside it (why: it starts a server, which must be
   * reachable). Nothing contains it, so it asks at every level unless a rule allows it exactly.
   */
  outsideSandbox?: string;
  /**
   * Commands run in this shell (cmd.exe, PowerShell on Windows without Git Bash), whose lines the
   * POSIX reader cannot judge: the danger rules still refuse what they recognise, and everything
   * else asks a person, at every level, whatever a rule allows.
   */
  foreignShell?: string;
}

export function ruleRef(rule: PermissionRule): { id: string; source: RuleSource } {
  return { id: rule.id, source: rule.source };
}
