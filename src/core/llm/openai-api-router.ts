// Provider `openai`: each request goes through Chat Completions or the Responses API, chosen per
// model (a session's roles may use both: a reasoning action model, a gpt-4.1-mini compact one) or
// fixed by the setting `openai.api`. Both share one client for the endpoint.
import type { OpenAiApi } from '../config/provider-settings';
import { chooseOpenAiApi } from './capabilities/openai-api';
import type { LlmProvider, ProviderEvent, ProviderRequest } from './provider';

export class OpenAiApiRouter implements LlmProvider {
  readonly id = 'openai';

  constructor(
    private readonly setting: OpenAiApi | undefined,
    private readonly chat: LlmProvider,
    private readonly responses: LlmProvider,
  ) {}

  stream(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    const api = chooseOpenAiApi(this.setting, request.model);
    return (api === 'responses' ? this.responses : this.chat).stream(request, signal);
  }
}
