// Which OpenAI API serves a model. OpenAI's reasoning models (o-series, gpt-5, codex) work best
// through the Responses API, where their reasoning is carried from one call to the next (Codex uses
// it); the others stay on Chat Completions, the API every OpenAI-compatible server speaks too.
import type { OpenAiApi } from '../../config/provider-settings';

/** What the choice of API needs to know about an OpenAI model. */
export interface OpenAiApiTraits {
  /** The Responses API is this model's better path (`auto` takes it). */
  prefersResponses: boolean;
  /** It reasons: the Responses API is asked for its reasoning summary and its encrypted reasoning items. */
  reasoning: boolean;
}

/**
 * First match wins. Ids are compared in lower case, after any `org/` prefix and `ft:` (a fine-tune
 * keeps its base model's nature). The gpt-5 chat snapshots do not reason, and refuse reasoning options.
 */
const TABLE: ReadonlyArray<{ pattern: RegExp } & OpenAiApiTraits> = [
  { pattern: /^gpt-5(\.\d+)?-chat/, prefersResponses: true, reasoning: false },
  { pattern: /codex/, prefersResponses: true, reasoning: true },
  { pattern: /^gpt-5/, prefersResponses: true, reasoning: true },
  { pattern: /^o\d/, prefersResponses: true, reasoning: true },
];

const NEITHER: OpenAiApiTraits = { prefersResponses: false, reasoning: false };

export function openAiApiTraits(model: string): OpenAiApiTraits {
  const id = model.trim().toLowerCase().replace(/^ft:/, '').replace(/^.*\//, '');
  const row = TABLE.find((r) => r.pattern.test(id));
  return row ? { prefersResponses: row.prefersResponses, reasoning: row.reasoning } : NEITHER;
}

/** The API a request goes through: the setting when it names one, else the model's preference. */
export function chooseOpenAiApi(setting: OpenAiApi | undefined, model: string): 'chat' | 'responses' {
  if (setting === 'chat' || setting === 'responses') return setting;
  return openAiApiTraits(model).prefersResponses ? 'responses' : 'chat';
}
