// The Anthropic SDK: dist/vendor/anthropic.js (1.3 MB with its telemetry API), loaded when an
// Anthropic provider is built (see scripts/lazy-bundles.mjs; reach it only through anthropicSdk()).
export { Anthropic, APIConnectionError, APIUserAbortError } from '@anthropic-ai/sdk';
