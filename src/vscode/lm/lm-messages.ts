import type * as vscode from 'vscode';
import type { Message } from '../../core/messages';
import { toolArgumentsObject } from '../../core/messages';
import type { ToolSchema } from '../../core/llm/provider';
import type { LmApi } from './lm-api';

type Parts = Pick<LmApi, 'LanguageModelChatMessage' | 'LanguageModelTextPart' | 'LanguageModelToolCallPart' | 'LanguageModelToolResultPart'>;

/**
 * The conversation as Language Model API messages. The API has no system role: the system prompt
 * opens the first user message (what VS Code's own chat participants do). Tool results must follow
 * the assistant message that called them, as user messages carrying LanguageModelToolResultParts;
 * consecutive results are joined into one message. Images are not sent (the API's image parts are
 * not stable in every VS Code this extension supports): the user's text is.
 */
export function toLmMessages(api: Parts, messages: readonly Message[], system?: string): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  const systemText = [system, ...messages.filter((m) => m.role === 'system').map((m) => m.content)].filter(Boolean).join('\n\n');
  let pendingSystem = systemText;
  let results: vscode.LanguageModelToolResultPart[] = [];
  const flushResults = () => {
    if (results.length) out.push(api.LanguageModelChatMessage.User(results));
    results = [];
  };
  for (const m of messages) {
    if (m.role === 'system') continue;
    if (m.role === 'tool') {
      results.push(new api.LanguageModelToolResultPart(m.toolCallId, [new api.LanguageModelTextPart(m.isError ? `Error: ${m.content}` : m.content)]));
      continue;
    }
    flushResults();
    if (m.role === 'user') {
      const text = pendingSystem ? `${pendingSystem}\n\n${m.content}` : m.content;
      pendingSystem = '';
      out.push(api.LanguageModelChatMessage.User(text));
    } else {
      const parts: Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart> = [];
      if (m.content) parts.push(new api.LanguageModelTextPart(m.content));
      for (const call of m.toolCalls) parts.push(new api.LanguageModelToolCallPart(call.id, call.name, toolArgumentsObject(call.arguments)));
      out.push(api.LanguageModelChatMessage.Assistant(parts));
    }
  }
  flushResults();
  // A conversation without a user message yet (never in practice): the system text alone.
  if (pendingSystem) out.unshift(api.LanguageModelChatMessage.User(pendingSystem));
  return out;
}

/** Our tool schemas as the API's tool descriptions (the same JSON schemas). */
export function toLmTools(tools: readonly ToolSchema[]): vscode.LanguageModelChatTool[] {
  return tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.parameters }));
}
