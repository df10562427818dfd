import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonSchemaOf } from './registry';
import type { Tool } from './tool';

/**
 * The JSON schemas of the built-in tools' arguments, derived from their zod schemas once at build
 * time (esbuild.config.mjs writes this file beside the bundles): a session starts without building
 * those zod schemas (each tool's is `z.lazy`, built on its first call) nor converting them, which is
 * a tenth of `opendev -p`'s time to its first request. Without the file (the tests' per-file build,
 * `--watch`) the registry derives them as before.
 */
export const BUILTIN_PARAMETERS_FILE = 'tool-parameters.json';

type Parameters = Record<string, Record<string, unknown>>;

let loaded: Parameters | null | undefined;

/** What the build wrote beside this bundle, by tool name; undefined when it wrote nothing. */
export function builtinParameters(): Parameters | undefined {
  if (loaded === undefined) {
    const file = join(__dirname, BUILTIN_PARAMETERS_FILE);
    loaded = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Parameters) : null;
  }
  return loaded ?? undefined;
}

/** Name → the JSON schema the model sees, for these tools: what the build writes (and tests compare). */
export function deriveParameters(tools: readonly Tool[]): Parameters {
  return Object.fromEntries(tools.map((tool) => [tool.name, jsonSchemaOf(tool.schema)]));
}
