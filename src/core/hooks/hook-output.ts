import * as z from 'zod';

// This file's schemas are built on their first parse (z.lazy): a start-up that reads none of its records does not pay for them.
/**
 * The JSON a command hook may print on stdout (Claude Code's "JSON output"): the universal fields,
 * the top-level decision, and `hookSpecificOutput`. Unknown fields are kept and ignored (newer
 * Claude Code fields such as `terminalSequence` or `sessionTitle`). A hook's stdout is untrusted: an
 * object that does not fit this schema is reported and ignored as a whole.
 */
export const hookJsonOutputSchema = z.lazy(() => z
  .object({
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    systemMessage: z.string().optional(),
    /** Deprecated for PreToolUse (approve → allow, block → deny); the decision of the other events. */
    decision: z.enum(['approve', 'block']).optional(),
    reason: z.string().optional(),
    hookSpecificOutput: z
      .object({
        hookEventName: z.string().optional(),
        permissionDecision: z.enum(['allow', 'deny', 'ask', 'defer']).optional(),
        permissionDecisionReason: z.string().optional(),
        updatedInput: z.record(z.string(), z.unknown()).optional(),
        additionalContext: z.string().optional(),
      })
      .loose()
      .optional(),
  })
  .loose());

export type HookJsonOutput = z.infer<typeof hookJsonOutputSchema>;

export type ParsedHookStdout =
  /** Not JSON: plain text (context for some events, ignored for the others). */
  | { kind: 'text'; text: string }
  | { kind: 'json'; output: HookJsonOutput }
  /** Looks like JSON (starts with `{`) but does not parse or does not fit the schema. */
  | { kind: 'invalid'; problem: string };

/** Claude Code reads stdout as JSON only when its first non-blank character is `{`. */
export function parseHookStdout(stdout: string): ParsedHookStdout {
  const text = stdout.trim();
  if (!text.startsWith('{')) return { kind: 'text', text };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { kind: 'invalid', problem: `it starts like JSON but does not parse (${(err as Error).message})` };
  }
  const parsed = hookJsonOutputSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'the output';
    return { kind: 'invalid', problem: `its JSON does not fit the hook output format (${where}: ${issue?.message ?? 'invalid'})` };
  }
  return { kind: 'json', output: parsed.data };
}
