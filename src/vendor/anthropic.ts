// The Anthropic SDK and its Bedrock and Vertex clients (which extend it, so they share its code):
// dist/vendor/anthropic.js, loaded when an Anthropic, Bedrock or Vertex provider is built (see
// scripts/lazy-bundles.mjs; reach it only through anthropicSdk()). The Bedrock client's AWS parts are
// bundled from their ES builds, so only what signs a request and reads its event stream is inside;
// google-auth-library is not (OpenDev hands the Vertex client its own authClient, see vertex-auth.ts).
export { Anthropic, APIConnectionError, APIUserAbortError } from '@anthropic-ai/sdk';
export { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk';
export { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
