import { z } from 'zod';

/**
 * The chat webview ⇄ extension protocol: one discriminated union per direction, validated with
 * zod on receipt on both sides. Nothing the webview sends is used before it parses here.
 */

export const ChatEntrySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), id: z.string(), text: z.string() }),
  z.object({ kind: z.literal('assistant'), id: z.string(), text: z.string() }),
  z.object({
    kind: z.literal('tool'),
    id: z.string(),
    name: z.string(),
    args: z.string(),
    status: z.enum(['running', 'ok', 'error']),
    summary: z.string().optional(),
  }),
  z.object({
    kind: z.literal('error'),
    id: z.string(),
    text: z.string(),
    /** A fix the user can apply with one click. */
    action: z.enum(['setApiKey', 'openSettings']).optional(),
  }),
  z.object({ kind: z.literal('notice'), id: z.string(), text: z.string() }),
]);
export type ChatEntry = z.infer<typeof ChatEntrySchema>;

export const ExtensionToWebviewSchema = z.discriminatedUnion('type', [
  /** The whole transcript: sent when the view (re)loads. */
  z.object({ type: z.literal('snapshot'), entries: z.array(ChatEntrySchema), busy: z.boolean() }),
  /** Adds an entry, or replaces the entry with the same id. */
  z.object({ type: z.literal('upsert'), entry: ChatEntrySchema }),
  z.object({ type: z.literal('textDelta'), id: z.string(), delta: z.string() }),
  z.object({ type: z.literal('busy'), busy: z.boolean() }),
]);
export type ExtensionToWebview = z.infer<typeof ExtensionToWebviewSchema>;

export const WebviewToExtensionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('send'), text: z.string().trim().min(1).max(100_000) }),
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('newChat') }),
  z.object({ type: z.literal('action'), action: z.enum(['setApiKey', 'openSettings']) }),
]);
export type WebviewToExtension = z.infer<typeof WebviewToExtensionSchema>;
