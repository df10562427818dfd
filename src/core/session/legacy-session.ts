// The older single-file format: `<id>.json` holding the metadata AND the messages inline (as the
// paper's first session manager wrote them: snake_case fields, OpenAI-style tool calls). Such a file
// is converted to the metadata + transcript pair when it is first read; the store keeps a `.bak`.
import * as z from 'zod';
import type { Message, ToolCall } from '../messages';
import { SESSION_ID_PATTERN, type SessionMeta } from './session-schema';

// This file's schemas are built on their first parse (z.lazy): a start-up that reads none of its records does not pay for them.
const LegacyToolCallSchema = z.lazy(() => z.union([
  z.object({ id: z.string(), name: z.string(), arguments: z.unknown() }),
  z.object({ id: z.string(), function: z.object({ name: z.string(), arguments: z.unknown() }) }),
]));

const LegacyMessageSchema = z.lazy(() => z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string().nullish(),
  toolCalls: z.array(LegacyToolCallSchema).nullish(),
  tool_calls: z.array(LegacyToolCallSchema).nullish(),
  toolCallId: z.string().optional(),
  tool_call_id: z.string().optional(),
  name: z.string().optional(),
  isError: z.boolean().optional(),
  is_error: z.boolean().optional(),
  summary: z.string().optional(),
}));

const LegacyCostSchema = z.lazy(() => z.object({
  inputTokens: z.number(),
  cachedTokens: z.number().default(0),
  outputTokens: z.number(),
  usd: z.number().optional(),
  calls: z.number().default(0),
}));

const LegacySessionSchema = z.lazy(() => z.object({
  id: z.string().regex(SESSION_ID_PATTERN),
  title: z.string().optional(),
  workingDir: z.string().optional(),
  working_directory: z.string().optional(),
  createdAt: z.string().optional(),
  created_at: z.string().optional(),
  updatedAt: z.string().optional(),
  updated_at: z.string().optional(),
  cost: LegacyCostSchema.optional(),
  messages: z.array(z.unknown()),
}));

/** A metadata file with its messages inline. */
export function isLegacySession(json: unknown): boolean {
  return typeof json === 'object' && json !== null && Array.isArray((json as { messages?: unknown }).messages);
}

export interface ConvertedSession {
  meta: SessionMeta;
  messages: Message[];
  problems: string[];
}

/**
 * The session in today's shape, or why it cannot be read. `fallback` fills what an old file may
 * lack (the project folder it was found in, a time).
 */
export function convertLegacySession(json: unknown, file: string, fallback: { workingDir: string; now: string }): ConvertedSession | string {
  const parsed = LegacySessionSchema.safeParse(json);
  if (!parsed.success) return `not a session (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message ?? 'invalid'})`;
  const old = parsed.data;
  const problems: string[] = [];
  const messages: Message[] = [];
  old.messages.forEach((raw, i) => {
    const message = convertMessage(raw);
    if (typeof message === 'string') problems.push(`${file}: message ${i + 1}: ${message}, skipped`);
    else messages.push(message);
  });
  const createdAt = old.createdAt ?? old.created_at ?? fallback.now;
  const cost = old.cost ? { ...old.cost } : undefined;
  const meta: SessionMeta = {
    id: old.id,
    title: old.title ?? '',
    workingDir: old.workingDir ?? old.working_directory ?? fallback.workingDir,
    createdAt,
    updatedAt: old.updatedAt ?? old.updated_at ?? createdAt,
    messageCount: messages.length,
    ...(cost ? { cost } : {}),
  };
  return { meta, messages, problems };
}

function convertMessage(raw: unknown): Message | string {
  const parsed = LegacyMessageSchema.safeParse(raw);
  if (!parsed.success) return `not a message (${parsed.error.issues[0]?.message ?? 'invalid'})`;
  const m = parsed.data;
  const content = m.content ?? '';
  switch (m.role) {
    case 'system':
    case 'user':
      return { role: m.role, content };
    case 'assistant':
      return { role: 'assistant', content, toolCalls: (m.toolCalls ?? m.tool_calls ?? []).map(convertToolCall) };
    case 'tool': {
      const toolCallId = m.toolCallId ?? m.tool_call_id;
      if (!toolCallId) return 'a tool result without the id of its call';
      return {
        role: 'tool',
        toolCallId,
        name: m.name ?? 'unknown',
        content,
        isError: m.isError ?? m.is_error ?? false,
        ...(m.summary !== undefined ? { summary: m.summary } : {}),
      };
    }
  }
}

function convertToolCall(call: z.infer<typeof LegacyToolCallSchema>): ToolCall {
  const { name, arguments: args } = 'function' in call ? call.function : call;
  return { id: call.id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) };
}
