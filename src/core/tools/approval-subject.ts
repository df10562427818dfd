import type { ApprovalRequest, ProposedEdit } from '../ui';
import { changeHunks } from './edit/change-hunks';
import { unifiedDiff } from './edit/unified-diff';

/** A proposed file change, prepared once: the diff a person reads (and its line counts), and the texts and hunks a diff editor shows. */
export interface ProposedChange {
  diff: string;
  added: number;
  removed: number;
  change: ProposedEdit;
}

/** The change from `before` to `after` of the file at `path` (absolute), shown as `shown`. */
export function proposedChange(path: string, shown: string, before: string, after: string, creates = false): ProposedChange {
  const change: ProposedEdit = { path, before, after, hunks: changeHunks(before, after), ...(creates ? { creates: true as const } : {}) };
  const diff = unifiedDiff(before, after, shown);
  return { diff: diff.text, added: diff.added, removed: diff.removed, change };
}

/**
 * What a person is asked about before a call that changes something runs. Each tool says it
 * (`Tool.approval`); the approval gate judges it, and the hooks, the chat card, the inline diff and
 * the terminal menu show it. Tools that do not say are asked about as a `call`.
 */
export type ApprovalSubject =
  /** A shell command line: judged simple command by simple command, and the user may edit it. */
  | {
      kind: 'command';
      command: string;
      /** false: the model asked to run it outside the OS sandbox. */
      sandbox: boolean;
      /** The call's arguments with the command the user wrote instead. */
      withCommand(command: string): Record<string, unknown>;
    }
  /** A file the call writes: path rules and the workspace boundary decide; the change, when the tool can show it. */
  | { kind: 'file'; path: string; proposed?: ProposedChange }
  /** Anything else: rules match its JSON arguments, and "Always allow" remembers the tool. */
  | { kind: 'call' }
  /** Nothing to ask about the call itself: a batch, whose calls are asked about one by one. */
  | { kind: 'none' };

export const CALL_SUBJECT: ApprovalSubject = { kind: 'call' };

/** What a question about this subject shows (the gate and the hooks add why they ask). */
export function subjectQuestion(toolName: string, subject: ApprovalSubject): { title: string } & Pick<ApprovalRequest, 'command' | 'diff' | 'proposed'> {
  switch (subject.kind) {
    case 'command':
      return { title: `Run \`${subject.command}\`?`, command: subject.command };
    case 'file':
      return { title: `${toolName} ${subject.path}?`, ...(subject.proposed ? { diff: subject.proposed.diff, proposed: subject.proposed.change } : {}) };
    default:
      return { title: `Allow ${toolName}?` };
  }
}
