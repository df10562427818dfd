import * as z from 'zod';
import type { TurnServices } from '../../llm/model-call';
import type { ResolvedRoleModel } from '../../llm/role-resolver';
import type { Message } from '../../messages';
import { loadTemplate, renderTemplate } from '../../templates';
import { askForJson, type JsonReply } from '../json-reply';
import { renderTranscript } from '../transcript';
import { BulletTagSchema, type Bullet } from './bullet';

// This file's schemas are built on their first parse (z.lazy): a start-up that reads none of its records does not pay for them.
const InsightSchema = z.lazy(() => z.union([
  z.string().transform((content) => ({ content, section: undefined as string | undefined })),
  z.object({ content: z.string(), section: z.string().optional() }),
]));

/** The reflector's verdict on a stretch of the conversation (validated model output). */
export const ReflectionSchema = z.lazy(() => z.object({
  bullet_tags: z.array(z.object({ id: z.string(), tag: BulletTagSchema })).default([]),
  insights: z.array(InsightSchema).default([]),
}));
export type Reflection = z.infer<typeof ReflectionSchema>;

export interface ReflectionInput {
  query: string;
  /** The bullets the agent was shown for this query. */
  shown: readonly Bullet[];
  /** The messages since the last reflection. */
  messages: readonly Message[];
}

/** ACE reflector: tags the bullets that mattered and draws insights from the latest messages. */
export async function reflect(model: ResolvedRoleModel, input: ReflectionInput, services: TurnServices): Promise<JsonReply<Reflection>> {
  const template = loadTemplate('memory/reflector.md');
  if (!template) return { ok: false, error: 'templates/memory/reflector.md is missing' };
  const prompt = renderTemplate(template, {
    QUERY: input.query,
    BULLETS: input.shown.map((b) => `- [${b.id}] ${b.content}`).join('\n'),
    TRANSCRIPT: renderTranscript(input.messages),
  });
  return askForJson({ model, purpose: 'reflector', prompt, schema: ReflectionSchema, retryReminder: 'reflector_json_retry' }, services);
}
