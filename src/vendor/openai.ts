// The OpenAI SDK (chat completions, embeddings) and its Azure client: dist/vendor/openai.js, loaded when a provider or an
// embedder is built (see scripts/lazy-bundles.mjs; reach it only through openAiSdk()).
export { APIConnectionError, APIUserAbortError, AzureOpenAI, OpenAI } from 'openai';
