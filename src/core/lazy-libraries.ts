// The third-party libraries only some features need, each loaded on first use from a bundle of its
// own (src/vendor/, built by scripts/lazy-bundles.mjs): the CLI and the extension start without
// parsing them. Call these where the library is used, never at module level.
/* eslint-disable @typescript-eslint/no-require-imports */
import type * as AnthropicSdk from '../vendor/anthropic';
import type * as GoogleAuthLibrary from '../vendor/google-auth';
import type * as HtmlLibs from '../vendor/html';
import type * as MarkdownLexer from '../vendor/markdown';
import type * as McpSdk from '../vendor/mcp-sdk';
import type * as OpenAiSdk from '../vendor/openai';
import type * as SandboxRuntime from '../vendor/sandbox-runtime';
import type * as YamlLibrary from '../vendor/yaml';

/** The OpenAI SDK: an OpenAI or OpenAI-compatible provider, an embeddings endpoint. */
export const openAiSdk = (): typeof OpenAiSdk => require('../vendor/openai');

/** The Anthropic SDK with its Bedrock and Vertex clients: an Anthropic, Bedrock or Vertex provider. */
export const anthropicSdk = (): typeof AnthropicSdk => require('../vendor/anthropic');

/** google-auth-library: Application Default Credentials for a Vertex provider without an access token. */
export const googleAuthLibrary = (): typeof GoogleAuthLibrary => require('../vendor/google-auth');

/** The MCP SDK's client and transports: the first MCP server started. */
export const mcpSdk = (): typeof McpSdk => require('../vendor/mcp-sdk');

/** turndown and its HTML parser: a web page read. */
export const htmlLibs = (): typeof HtmlLibs => require('../vendor/html');

/** The command sandbox's library (ESM: its facade imports it): the first sandbox check. */
export const sandboxRuntimeLibrary = (): typeof SandboxRuntime => require('../vendor/sandbox-runtime');

/** The YAML parser: the first frontmatter header the build has not read (a user's skill or agent). */
export const yamlLibrary = (): typeof YamlLibrary => require('../vendor/yaml');

/** marked's lexer: the first answer a terminal draws in colour. */
export const markdownLexer = (): typeof MarkdownLexer => require('../vendor/markdown');
