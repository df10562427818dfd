// `opendev models`: the models the configured provider offers, with no session and no agent. For an
// OpenAI-compatible server, the ones it serves (`GET /v1/models`; on Ollama with each model's context
// window and whether it calls tools); otherwise the capability catalogue's. Exit codes as the rest of
// the CLI: 0 listed, 1 the server did not answer, 2 bad usage or configuration.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { resolveOpendevHome } from '../core/config/opendev-home';
import { PROVIDER_LABELS } from '../core/config/provider-settings';
import { CapabilityCatalog } from '../core/llm/capabilities/catalog';
import type { ModelCapabilities } from '../core/llm/capabilities/model-capabilities';
import { ServerModelDirectory } from '../core/llm/server-models/server-model-directory';
import { parseCliArgs, UsageError } from './args';
import { settleFolderTrust } from './folder-trust';
import { MODELS_HELP } from './help';
import { EXIT } from './print-mode';
import { readCliSettingsFiles, resolveCliSettings } from './settings-from-env';

export interface ModelsCliIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** `argv`: the words after `opendev models` (the session's own flags: --provider, --model, -C). */
export async function runModelsCli(argv: readonly string[], io: ModelsCliIo): Promise<number> {
  const usage = (text: string) => {
    io.stderr(`opendev models: ${text}\nRun "opendev models --help" for usage.\n`);
    return EXIT.usage;
  };
  let options;
  try {
    options = parseCliArgs([...argv]);
  } catch (err) {
    if (err instanceof UsageError) return usage(err.message);
    throw err;
  }
  if (options.help) {
    io.stdout(`${MODELS_HELP}\n`);
    return EXIT.ok;
  }
  const workspaceRoot = resolve(io.cwd, options.workingDir ?? '.');
  if (!existsSync(workspaceRoot) || !statSync(workspaceRoot).isDirectory()) return usage(`--working-dir ${workspaceRoot} is not a folder`);
  const files = readCliSettingsFiles(io.env, workspaceRoot);
  let settings;
  try {
    // Never asks: an untrusted folder's configuration simply does not apply (its endpoint gets no key).
    const trust = await settleFolderTrust({ home: resolveOpendevHome(io.env), workspaceRoot }, (projectTrusted, endpointConfirmed) =>
      resolveCliSettings({ options, argv: [...argv], env: io.env, interactive: false, files, projectTrusted, endpointConfirmed }),
    );
    settings = trust.resolved.settings;
  } catch (err) {
    if (err instanceof UsageError) return usage(err.message);
    throw err;
  }
  const catalog = new CapabilityCatalog({ env: io.env });
  try {
    await catalog.load();
    if (settings.provider !== 'openai-compatible') {
      const rows = catalog.list(settings.provider).map((m) => row(m.id, m.capabilities, m.id === settings.model));
      io.stdout(`Models of ${PROVIDER_LABELS[settings.provider]} (from the model catalogue):\n${rows.join('\n')}\n`);
      return EXIT.ok;
    }
    if (!settings.baseUrl) return usage('the provider is an OpenAI-compatible server but no address is set (OPENAI_BASE_URL, or baseUrl in settings.json)');
    const listing = await new ServerModelDirectory(catalog).list({ baseUrl: settings.baseUrl, ...(settings.apiKey ? { apiKey: settings.apiKey } : {}) });
    if (!listing.ok) {
      io.stderr(`opendev models: ${listing.error.message}\n`);
      return EXIT.failure;
    }
    const rows = listing.models.map((m) => row(m.id, m.capabilities, m.id === settings.model));
    const server = listing.server === 'ollama' ? 'Ollama' : 'the server';
    io.stdout(`Models of ${server} at ${listing.baseUrl}:\n${rows.length ? rows.join('\n') : '  (none)'}\n`);
    return EXIT.ok;
  } finally {
    catalog.close();
  }
}

/** "* llama3.1:8b  131k context · no tool calling": the current model starred. */
function row(id: string, c: ModelCapabilities, current: boolean): string {
  const known = c.known || c.fromServer;
  const notes = [known ? `${tokens(c.contextWindow)} context` : 'context unknown', c.vision ? 'vision' : undefined, c.toolCalls === false ? 'no tool calling: the agent cannot act with it' : undefined];
  return `${current ? '*' : ' '} ${id}  ${notes.filter(Boolean).join(' · ')}`;
}

function tokens(n: number): string {
  if (n >= 1_000_000) return `${Number((n / 1_000_000).toFixed(1))}M`;
  if (n >= 1000) return `${Math.round(n / 1000)}k`;
  return String(n);
}
