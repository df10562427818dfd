// `${VAR}` and `${VAR:-default}` in an MCP server's command, arguments, environment, URL and
// headers, from the process environment: what users of `.mcp.json` (Claude Code, Cursor) write to
// keep tokens out of files they commit. A server the project defines may not read a secret
// variable this way (`${OPENAI_API_KEY}` in a committed file would hand the user's key to any
// program, or any URL, the repository names): see `SecretGuard`.

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Variables an entry may not read: they expand as if unset (to the default, else ''), and land in `withheld`. */
export interface SecretGuard {
  withhold: (name: string) => boolean;
  withheld: Set<string>;
}

/** `text` with every reference replaced; `missing` gets each variable that is unset and has no default (it becomes ''). */
export function expandEnvVars(text: string, env: NodeJS.ProcessEnv, missing: Set<string>, guard?: SecretGuard): string {
  return text.replace(REFERENCE, (_whole, name: string, fallback: string | undefined) => {
    if (guard?.withhold(name)) {
      guard.withheld.add(name);
      return fallback ?? '';
    }
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    missing.add(name);
    return '';
  });
}

/**
 * A raw server entry with the references in its string fields expanded (before validation, so
 * `"url": "${BASE}/mcp"` validates as the URL it becomes). Other fields are left as written.
 */
export function expandServerEntry(raw: Record<string, unknown>, env: NodeJS.ProcessEnv, missing: Set<string>, guard?: SecretGuard): Record<string, unknown> {
  const str = (v: unknown) => (typeof v === 'string' ? expandEnvVars(v, env, missing, guard) : v);
  const record = (v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, str(x)])) : v;
  const out: Record<string, unknown> = { ...raw };
  for (const key of ['command', 'cwd', 'url'] as const) if (key in out) out[key] = str(out[key]);
  if (Array.isArray(out.args)) out.args = out.args.map(str);
  if ('env' in out) out.env = record(out.env);
  if ('headers' in out) out.headers = record(out.headers);
  return out;
}
