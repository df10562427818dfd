// Stands in for google-auth-library inside dist/vendor/anthropic.js. The Vertex client constructs a
// GoogleAuth only when it is given no authClient, and OpenDev always gives it one
// (src/core/llm/vertex-auth.ts), which loads the real library from dist/vendor/google-auth.js when
// Application Default Credentials are needed: the Anthropic bundle need not carry it twice.
export class GoogleAuth {
  constructor() {
    throw new Error('OpenDev builds the Vertex client with its own authClient (src/core/llm/vertex-auth.ts)');
  }
}
export class AuthClient {}
