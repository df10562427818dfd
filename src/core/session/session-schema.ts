// The on-disk shapes of a session, validated with zod when read back (a session file is a trust
// boundary: it may be truncated by a crash, hand-edited, or written by another version).
import * as z from 'zod';
import type { Message } from '../messages';
import { ImageAttachmentSchema } from '../../shared/image-attachment';

/** Session ids: 8 characters of [a-z0-9] (paper appendix I). */
export const SESSION_ID_PATTERN = /^[a-z0-9]{8}$/;

// This file's schemas are built on their first parse (z.lazy): a start-up that reads none of its records does not pay for them.
const CostSchema = z.lazy(() => z.object({
  inputTokens: z.number(),
  cachedTokens: z.number(),
  outputTokens: z.number(),
  reasoningTokens: z.number().optional(),
  usd: z.number().optional(),
  calls: z.number(),
}));

/** `<id>.json`: what a session is, without its messages. */
export const SessionMetaSchema = z.lazy(() => z.object({
  id: z.string().regex(SESSION_ID_PATTERN),
  title: z.string(),
  workingDir: z.string().min(1),
  createdAt: z.string(),
  updatedAt: z.string(),
  messageCount: z.number().int().min(0),
  cost: CostSchema.optional(),
  /** Where the title came from: the first user message (default) or the compact model. */
  titleSource: z.enum(['message', 'model']).optional(),
  /** The user's first message, clipped (the history view searches it; older sessions have none). */
  firstPrompt: z.string().optional(),
}));
export type SessionMeta = z.infer<typeof SessionMetaSchema>;

/** `sessions-index.json`: one project's sessions at a glance (a cache of the metadata files, ~200 bytes each). */
export const SessionIndexSchema = z.lazy(() => z.object({
  version: z.literal(1),
  workingDir: z.string().min(1),
  sessions: z.array(SessionMetaSchema.unwrap().omit({ workingDir: true })),
}));
export type SessionIndexFile = z.infer<typeof SessionIndexSchema>;

const ToolCallSchema = z.lazy(() => z.object({ id: z.string(), name: z.string(), arguments: z.string() }));
/** Opaque to the store: the provider that reads them validates each item itself. */
const ProviderItemsSchema = z.lazy(() => z.object({ api: z.string().min(1), model: z.string().optional(), items: z.array(z.record(z.string(), z.unknown())) }));
const UserMessageOriginSchema = z.lazy(() => z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('prompt'), text: z.string() }),
  z.object({ kind: z.literal('followup'), text: z.string() }),
  z.object({ kind: z.literal('compaction') }),
  z.object({ kind: z.literal('undo'), steps: z.string() }),
  z.object({ kind: z.literal('note') }),
]));

/** One line of `<id>.jsonl`: a provider-neutral message plus the time it was recorded. */
export const TranscriptLineSchema = z.lazy(() => z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string(), timestamp: z.string() }),
  /** `images`: vision input the user attached (base64), checked like the chat view's; `origin`: who wrote it (sessions before it have none). */
  z.object({ role: z.literal('user'), content: z.string(), images: z.array(ImageAttachmentSchema).optional(), origin: UserMessageOriginSchema.optional(), timestamp: z.string() }),
  /** `providerItems`: what the API that wrote the answer wants back (OpenAI Responses reasoning items); older sessions have none. */
  z.object({ role: z.literal('assistant'), content: z.string(), toolCalls: z.array(ToolCallSchema), providerItems: ProviderItemsSchema.optional(), timestamp: z.string() }),
  z.object({
    role: z.literal('tool'),
    toolCallId: z.string(),
    name: z.string(),
    content: z.string(),
    isError: z.boolean(),
    /** The one-line summary the UI shows for the result (older sessions have none). */
    summary: z.string().optional(),
    timestamp: z.string(),
  }),
]));
export type TranscriptLine = z.infer<typeof TranscriptLineSchema>;

export function toTranscriptLine(message: Message, timestamp: string): TranscriptLine {
  return { ...message, timestamp };
}

/** Drops the timestamp (and anything else not part of a Message). */
export function fromTranscriptLine(line: TranscriptLine): Message {
  switch (line.role) {
    case 'system':
      return { role: 'system', content: line.content };
    case 'user': {
      const origin = line.origin ? { origin: { ...line.origin } } : {};
      return line.images?.length ? { role: 'user', content: line.content, images: line.images.map((i) => ({ ...i })), ...origin } : { role: 'user', content: line.content, ...origin };
    }
    case 'assistant': {
      const toolCalls = line.toolCalls.map((c) => ({ ...c }));
      if (!line.providerItems) return { role: 'assistant', content: line.content, toolCalls };
      const { api, model, items } = line.providerItems;
      return { role: 'assistant', content: line.content, toolCalls, providerItems: { api, ...(model !== undefined ? { model } : {}), items: items.map((i) => ({ ...i })) } };
    }
    case 'tool':
      return {
        role: 'tool',
        toolCallId: line.toolCallId,
        name: line.name,
        content: line.content,
        isError: line.isError,
        ...(line.summary !== undefined ? { summary: line.summary } : {}),
      };
  }
}

/**
 * Makes a transcript with lost lines valid again for a provider: a tool result must follow the
 * assistant message that asked for it, and every tool call needs a result. Orphan results are
 * dropped; calls without a result are removed from their assistant message (an assistant message
 * left with neither text nor calls is dropped). Returns how many messages were changed.
 */
export function repairConversation(messages: readonly Message[]): { messages: Message[]; repaired: number } {
  const answered = new Set<string>();
  const requested = new Set<string>();
  for (const m of messages) {
    if (m.role === 'assistant') for (const c of m.toolCalls) requested.add(c.id);
    if (m.role === 'tool' && requested.has(m.toolCallId)) answered.add(m.toolCallId);
  }
  const out: Message[] = [];
  let repaired = 0;
  for (const m of messages) {
    if (m.role === 'tool' && !answered.has(m.toolCallId)) {
      repaired++;
      continue;
    }
    if (m.role === 'assistant' && m.toolCalls.some((c) => !answered.has(c.id))) {
      repaired++;
      const toolCalls = m.toolCalls.filter((c) => answered.has(c.id));
      if (!m.content && toolCalls.length === 0) continue;
      out.push({ ...m, toolCalls });
      continue;
    }
    out.push(m);
  }
  return { messages: out, repaired };
}
