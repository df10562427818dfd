// The environment every child process gets: a copy of ours without the secret variables (the
// provider keys, every `*_API_KEY`, `*_TOKEN`, `*_SECRET`… and the names the user lists in the
// `secretEnvVars` setting), so `env`, `printenv` or a hook's script never see a key that would then
// sit in the transcript. Keys are process-wide, so the policy is too: each host sets it once
// (`configureSecretEnv`). The CLI also takes the secrets out of its own process.env (`holdSecretEnv`)
// and keeps them here, in memory, for the code that needs them (`environmentWithSecrets`).
import { PROVIDER_ENV } from '../config/provider-settings';
import { CLOUD_SECRET_ENV } from '../config/cloud-settings';
import { scrubEnvironBlock } from './scrub-environ';
import { escapeRegex } from '../escape-regex';

/**
 * Names no child sees, as globs (`*` is any run of characters, matched without regard to case).
 * A variable named by one of these suffixes alone (`TOKEN`, `API_KEY`) is secret too.
 */
export const BUILTIN_SECRET_ENV: readonly string[] = [
  ...new Set(Object.values(PROVIDER_ENV).map((p) => p.apiKey)),
  // The clouds' credentials, the ones no pattern below names too (AWS_ACCESS_KEY_ID, the path to a
  // Google service account's key file).
  ...CLOUD_SECRET_ENV,
  '*_API_KEY',
  '*_APIKEY',
  '*_TOKEN',
  '*_SECRET',
  '*_SECRET_KEY',
  '*_ACCESS_KEY',
  '*_PRIVATE_KEY',
  '*_PASSWORD',
  // Well-known ones that follow no pattern.
  'PGPASSWORD',
  'MYSQL_PWD',
];

/** Unset in children whatever the policy: the VS Code extension host runs with these, and a `code` or `electron` child would act as Node. */
const HOST_ONLY = ['ELECTRON_RUN_AS_NODE', 'ELECTRON_NO_ATTACH_CONSOLE'];

interface Policy {
  /** The user's `secretEnvVars` (names or globs). */
  extra: readonly string[];
  test: (name: string) => boolean;
}

let policy: Policy = compile([]);
/** The secrets taken out of process.env (CLI only), by name. */
const held = new Map<string, string>();
let holding = false;

function compile(extra: readonly string[]): Policy {
  const glob = (p: string) => p.split('*').map(escapeRegex).join('.*');
  // A built-in `*_TOKEN` also names a bare `TOKEN`; the user's globs mean what they say.
  const builtin = BUILTIN_SECRET_ENV.flatMap((p) => (p.startsWith('*_') ? [glob(p), escapeRegex(p.slice(2))] : [glob(p)]));
  const globs = [...builtin, ...extra.map((p) => p.trim()).filter((p) => p !== '').map(glob)];
  const regex = new RegExp(`^(?:${globs.join('|')})$`, 'i');
  return { extra: [...extra], test: (name) => regex.test(name) };
}

/**
 * Sets the user's `secretEnvVars` (names or `*` globs, on top of the built-in list). Once the host
 * holds its secrets (`holdSecretEnv`), variables the new list names leave process.env too.
 */
export function configureSecretEnv(options: { extra?: readonly string[] }): void {
  policy = compile(options.extra ?? []);
  if (holding) holdSecretEnv();
}

/** True when `name` is a secret variable: built in, or in the user's `secretEnvVars`. */
export function isSecretEnvName(name: string): boolean {
  return policy.test(name);
}

/**
 * A copy of `base` (process.env by default) without the secret variables and the host's own
 * Electron switches, with `extra` on top: what a spawn site adds on purpose (GIT_*, PYTHONUNBUFFERED,
 * CLAUDE_PROJECT_DIR…, or the variables run_command was given) is kept as given.
 */
export function childEnv(extra: Record<string, string | undefined> = {}, base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined && !policy.test(k) && !HOST_ONLY.includes(k)) env[k] = v;
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

/**
 * Takes every secret variable out of process.env into memory (and off the environment block the
 * kernel shows in /proc/<pid>/environ, on Linux), and returns the environment as it was, secrets
 * included, for the code that reads keys and settings from it. For a host that owns its process
 * (the CLI), at its very start; `configureSecretEnv` takes the user's extra names out later.
 */
export function holdSecretEnv(): NodeJS.ProcessEnv {
  holding = true;
  const taken: string[] = [];
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || !policy.test(name)) continue;
    held.set(name, value);
    delete process.env[name];
    taken.push(name);
  }
  if (taken.length > 0) scrubEnvironBlock(new Set(taken));
  return environmentWithSecrets();
}

/** process.env with the held secrets back in: for `${VAR}` in the user's own MCP servers, which may use any variable. */
export function environmentWithSecrets(): NodeJS.ProcessEnv {
  return { ...process.env, ...Object.fromEntries(held) };
}

/** Tests only: forgets the policy and puts held secrets back. */
export function resetSecretEnvForTests(): void {
  for (const [name, value] of held) process.env[name] = value;
  held.clear();
  holding = false;
  policy = compile([]);
}
