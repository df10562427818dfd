import * as z from 'zod';
import type { ToolCall } from '../messages';
import type { Tool, ToolExecutionContext } from './tool';
import { CALL_SUBJECT, type ApprovalSubject } from './approval-subject';

/** A call's arguments checked against its tool's schema: the validated value, or what the model must fix. */
export type CheckedArguments<T = unknown> = { ok: true; args: T } | { ok: false; problem: string };

interface Read {
  /** The JSON value the model sent; its text when it is not JSON. */
  raw: unknown;
  /** Why the text is not JSON. */
  notJson?: string;
  checked?: { tool: Tool; result: CheckedArguments };
  subject?: { tool: Tool; subject: Promise<ApprovalSubject | undefined> };
}

// Keyed by the call object: a seam that changes the arguments (a hook's updatedInput, an edited
// command) makes a new call, which is read afresh; everything else reads each call once.
const reads = new WeakMap<ToolCall, Read>();

function read(call: ToolCall): Read {
  let entry = reads.get(call);
  if (!entry) {
    const text = call.arguments;
    try {
      entry = { raw: text.trim() === '' ? {} : JSON.parse(text) };
    } catch (err) {
      entry = { raw: text, notJson: (err as Error).message };
    }
    reads.set(call, entry);
  }
  return entry;
}

/** The arguments as the model sent them (for hooks, rules on JSON, logs): parsed once per call. */
export function rawArguments(call: ToolCall): unknown {
  return read(call).raw;
}

/** The raw arguments when they are a JSON object, else `{}`. */
export function argumentsObject(call: ToolCall): Record<string, unknown> {
  const raw = read(call).raw;
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
}

/**
 * The arguments validated against the tool's schema, once per call: the approval step, the
 * registry and the tool all see this one value. The problem is phrased for the model to act on.
 */
export function checkedArguments<S extends z.ZodType>(call: ToolCall, tool: Tool<S>): CheckedArguments<z.infer<S>> {
  const entry = read(call);
  if (entry.checked?.tool !== tool) {
    let result: CheckedArguments;
    if (entry.notJson !== undefined) {
      result = { ok: false, problem: `The arguments for ${call.name} are not valid JSON (${entry.notJson}). Send one JSON object matching the tool's schema.` };
    } else {
      const parsed = tool.schema.safeParse(entry.raw);
      result = parsed.success ? { ok: true, args: parsed.data } : { ok: false, problem: `Invalid arguments for ${call.name}:\n${z.prettifyError(parsed.error)}` };
    }
    entry.checked = { tool, result };
  }
  return entry.checked.result as CheckedArguments<z.infer<S>>;
}

/**
 * What the call is about, as its tool says (`Tool.approval`), prepared once per call: the hooks
 * and the approval gate ask about the same subject, and an edit's preview reads the file once.
 * Undefined when the arguments are invalid (the registry refuses the call).
 */
export function approvalSubject(call: ToolCall, tool: Tool, ctx: ToolExecutionContext): Promise<ApprovalSubject | undefined> {
  const entry = read(call);
  if (entry.subject?.tool !== tool) {
    const checked = checkedArguments(call, tool);
    const subject = checked.ok ? Promise.resolve(tool.approval?.(checked.args, ctx) ?? CALL_SUBJECT) : Promise.resolve(undefined);
    entry.subject = { tool, subject };
  }
  return entry.subject.subject;
}

/** A copy of the call with more fields (the user's verdict on its hunks) that keeps what was read of it. */
export function extendCall<T extends object>(call: ToolCall, extra: T): ToolCall & T {
  const copy = { ...call, ...extra };
  const entry = reads.get(call);
  if (entry) reads.set(copy, entry);
  return copy;
}
