// Prompt tokens of a recorded request (the fake provider's OpenAI body), counted with a real
// tokenizer (o200k_base), for the benchmarks that measure what a first request costs.
import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';

// A subpath export, which the project's node10 module resolution cannot type.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const o200k = require('js-tiktoken/ranks/o200k_base') as TiktokenBPE;

let encoder: Tiktoken | undefined;

/** Tokens of a text, or of a value as JSON. */
export function countTokens(value: unknown): number {
  encoder ??= new Tiktoken(o200k);
  return encoder.encode(typeof value === 'string' ? value : JSON.stringify(value)).length;
}

export interface RequestTokens {
  /** The system messages. */
  system: number;
  /** The tool schemas. */
  tools: number;
  /** System, tools and the other messages. */
  total: number;
  /** The tools the request offered, by name. */
  toolNames: string[];
}

export function requestTokens(body: { messages: Array<{ role: string; content?: unknown }>; tools?: Array<{ function: { name: string } }> }): RequestTokens {
  const system = body.messages.filter((m) => m.role === 'system').reduce((n, m) => n + countTokens(m.content), 0);
  const tools = countTokens(body.tools ?? []);
  return {
    system,
    tools,
    total: system + tools + countTokens(body.messages.filter((m) => m.role !== 'system')),
    toolNames: (body.tools ?? []).map((t) => t.function.name),
  };
}
