// Our provider-neutral conversation as the OpenAI Responses API reads it: `instructions` for the
// system prompt, then input items: messages, `function_call` for each tool call we made and
// `function_call_output` for its result, and before an answer the reasoning items the model produced
// with it (kept on the assistant message as `providerItems`), so a reasoning model continues its own
// reasoning instead of starting over (nothing is stored at OpenAI: `store: false`).
import * as z from 'zod';
import type { ResponseInputItem, FunctionTool } from 'openai/resources/responses/responses';
import type { Message, ProviderItems } from '../messages';
import type { ProviderRequest, ToolSchema } from './provider';
import { imageDataUrl, systemPromptOf } from './openai-client';

/** The `api` of the provider items this path writes and reads back. */
export const RESPONSES_ITEMS_API = 'openai-responses';

/**
 * A reasoning item as the API returned it. Validated when read back from the history (a session file
 * is a trust boundary); other fields it may gain are kept as they came. Built on its first parse
 * (z.lazy): creating the provider at start-up does not pay for it.
 */
const ReasoningItemSchema = z.lazy(() =>
  z.looseObject({
    type: z.literal('reasoning'),
    id: z.string().min(1),
    summary: z.array(z.looseObject({ type: z.literal('summary_text'), text: z.string() })),
    encrypted_content: z.string().nullish(),
  }),
);

export function responsesInstructions(request: ProviderRequest): string | undefined {
  return systemPromptOf(request);
}

/** The conversation without its system messages (they are `instructions`), for `model`. */
export function toResponsesInput(messages: readonly Message[], model: string): ResponseInputItem[] {
  return messages.flatMap((message) => toInputItems(message, model));
}

function toInputItems(message: Message, model: string): ResponseInputItem[] {
  switch (message.role) {
    case 'system':
      return [];
    case 'user':
      if (!message.images?.length) return [{ role: 'user', content: message.content }];
      return [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: message.content },
            ...message.images.map((image) => ({ type: 'input_image' as const, image_url: imageDataUrl(image), detail: 'auto' as const })),
          ],
        },
      ];
    case 'assistant':
      return [
        ...reasoningItems(message.providerItems, model),
        ...(message.content ? [{ role: 'assistant' as const, content: message.content }] : []),
        ...message.toolCalls.map((call) => ({ type: 'function_call' as const, call_id: call.id, name: call.name, arguments: call.arguments })),
      ];
    case 'tool':
      return [{ type: 'function_call_output', call_id: message.toolCallId, output: message.content }];
  }
}

/**
 * This API's own items that still parse, for the model that wrote them: another provider's items are
 * not ours to send, and another model (a compact role reading the same history) cannot decrypt them.
 */
function reasoningItems(providerItems: ProviderItems | undefined, model: string): ResponseInputItem[] {
  if (providerItems?.api !== RESPONSES_ITEMS_API || (providerItems.model !== undefined && providerItems.model !== model)) return [];
  return providerItems.items.flatMap((item) => {
    const parsed = ReasoningItemSchema.safeParse(item);
    // Without its encrypted content the API would look the item up by id, which store: false never kept.
    return parsed.success && parsed.data.encrypted_content ? [parsed.data as ResponseInputItem] : [];
  });
}

/** A tool as a function tool; not strict, since our schemas keep optional parameters optional. */
export function toResponsesTool(tool: ToolSchema): FunctionTool {
  return { type: 'function', name: tool.name, description: tool.description, parameters: tool.parameters, strict: false };
}
