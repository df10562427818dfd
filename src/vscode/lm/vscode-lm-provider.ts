import * as l10n from '@vscode/l10n';
import type * as vscode from 'vscode';
import type { LlmProvider, ProviderEvent, ProviderRequest } from '../../core/llm/provider';
import type { LmApi } from './lm-api';
import { toLmProviderError, noLmModelError } from './lm-errors';
import { toLmMessages, toLmTools } from './lm-messages';
import { lmModelLabel, pickLmModel } from './lm-model-pick';

/**
 * The `vscode-lm` provider: the agent's model calls through VS Code's Language Model API (Copilot's
 * models, or any extension's). VS Code holds the credentials and asks the user's consent on the
 * first request; the model is looked up by `request.model` (opendev.model) on every call, so a
 * model that appears or goes away later is followed.
 */
export class VsCodeLmProvider implements LlmProvider {
  readonly id = 'vscode-lm';

  constructor(private readonly api: LmApi) {}

  async *stream(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    const model = await pickLmModel(this.api, request.model);
    if (!model) throw noLmModelError(request.model);
    const label = lmModelLabel(model);
    const system = request.systemParts ? [request.systemParts.stable, request.systemParts.dynamic].filter(Boolean).join('\n\n') : undefined;
    const messages = toLmMessages(this.api, request.messages, system);
    const cancel = new this.api.CancellationTokenSource();
    const onAbort = () => cancel.cancel();
    signal.addEventListener('abort', onAbort);
    let output = '';
    try {
      const options: vscode.LanguageModelChatRequestOptions = {
        justification: l10n.t('OpenDev sends your task, the files it reads and its tool results to this model.'),
        ...(request.tools.length ? { tools: toLmTools(request.tools), toolMode: this.api.LanguageModelChatToolMode.Auto } : {}),
      };
      const response = await model.sendRequest(messages, options, cancel.token);
      for await (const part of response.stream) {
        if (signal.aborted) break;
        if (part instanceof this.api.LanguageModelTextPart) {
          output += part.value;
          yield { type: 'text', delta: part.value };
        } else if (part instanceof this.api.LanguageModelToolCallPart) {
          const args = JSON.stringify(part.input ?? {});
          output += part.name + args;
          yield { type: 'tool_call', call: { id: part.callId, name: part.name, arguments: args } };
        }
      }
      if (signal.aborted) throw new Error('aborted');
    } catch (err) {
      throw toLmProviderError(this.api, err, label, signal.aborted);
    } finally {
      signal.removeEventListener('abort', onAbort);
      cancel.dispose();
    }
    // The API reports no usage: the model counts its own tokens (what its context window is in).
    yield { type: 'usage', usage: await countUsage(model, messages, output, signal) };
  }
}

async function countUsage(model: vscode.LanguageModelChat, messages: vscode.LanguageModelChatMessage[], output: string, signal: AbortSignal) {
  if (signal.aborted) return { promptTokens: 0, cachedTokens: 0, outputTokens: 0 };
  const counts = await Promise.all(messages.map((m) => model.countTokens(m)));
  return { promptTokens: counts.reduce((a, b) => a + b, 0), cachedTokens: 0, outputTokens: output ? await model.countTokens(output) : 0 };
}
