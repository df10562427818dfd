import type { z } from 'zod';
import { callModel, type TurnServices } from '../llm/model-call';
import type { CallPurpose } from '../llm/call-purpose';
import type { ResolvedRoleModel } from '../llm/role-resolver';
import { getReminder } from '../context/reminders';
import type { AssistantMessage, Message } from '../messages';

export type JsonReply<T> = { ok: true; value: T } | { ok: false; error: string };

export interface JsonRequest<T> {
  model: ResolvedRoleModel;
  /** The reflector's or the curator's call, retries included. */
  purpose: Extract<CallPurpose, 'reflector' | 'curator'>;
  prompt: string;
  schema: z.ZodType<T>;
  /** The reminder (`templates/reminders.md`, variable `${ERROR}`) sent with each retry. */
  retryReminder: string;
  /** Retries after an invalid reply (default 2). */
  retries?: number;
}

/**
 * Asks for a JSON reply and validates it. An invalid reply is retried (bounded) with the reminder
 * telling the model what was wrong; without the reminder, the question is simply asked again.
 * Provider errors propagate; an answer that stays invalid comes back as `{ ok: false }`.
 */
export async function askForJson<T>(request: JsonRequest<T>, services: TurnServices): Promise<JsonReply<T>> {
  const retries = request.retries ?? 2;
  let messages: Message[] = [{ role: 'user', content: request.prompt }];
  let error = '';
  for (let attempt = 0; attempt <= retries; attempt++) {
    const reply: AssistantMessage = { role: 'assistant', content: '', toolCalls: [] };
    await callModel(reply, request.model, { messages, tools: [], purpose: request.purpose }, services, { streamText: false });
    const parsed = parseJsonReply(reply.content, request.schema);
    if (parsed.ok) return parsed;
    error = parsed.error;
    const reminder = getReminder(request.retryReminder, { ERROR: error });
    messages = reminder
      ? [{ role: 'user', content: request.prompt }, { role: 'assistant', content: reply.content, toolCalls: [] }, { role: 'user', content: reminder }]
      : [{ role: 'user', content: request.prompt }];
  }
  return { ok: false, error };
}

/** The JSON object in a reply (a code fence or words around it are tolerated), validated. */
export function parseJsonReply<T>(text: string, schema: z.ZodType<T>): JsonReply<T> {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return { ok: false, error: 'the reply contains no JSON object' };
  let json: unknown;
  try {
    json = JSON.parse(text.slice(start, end + 1));
  } catch (err) {
    return { ok: false, error: `invalid JSON: ${(err as Error).message}` };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  return { ok: false, error: `the JSON does not have the expected shape: ${issues.join('; ')}` };
}
