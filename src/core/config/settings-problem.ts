// What can be wrong with a settings source, and how to say it. A problem never stops the agent:
// a file that cannot be read is skipped whole; a bad, unknown or secret key is skipped alone.

export type SettingsProblemKind =
  /** The file exists but cannot be read (permissions, a folder in its place). The layer is skipped. */
  | 'unreadable'
  /** Syntax error or empty file. The layer is skipped. */
  | 'invalid-json'
  /** Valid JSON that is not an object. The layer is skipped. */
  | 'not-an-object'
  /** A known key with a wrong type or value. That key is skipped; the others apply. */
  | 'invalid-value'
  /** A key OpenDev does not know. Ignored. */
  | 'unknown-key'
  /** An API key (or another credential) in a settings source. Ignored: keys live in secret storage or the environment. */
  | 'api-key'
  /** A setting only the user may make (it names a program to run), found in a project's file. Ignored. */
  | 'user-only';

export interface SettingsProblem {
  kind: SettingsProblemKind;
  /** The file (or "VS Code settings") the problem is in. */
  source: string;
  /** The key path in that source, e.g. `roles.compact.model`. */
  key?: string;
  /** The exact problem (a parser or validation message); never contains a secret value. */
  detail: string;
}

export interface ProblemWording {
  /** Where API keys belong in this host, as a sentence: `Set OPENAI_API_KEY in the environment instead.` */
  apiKeyHint: string;
  /** How a key is named in this source: as written (files) or `opendev.<key>` (VS Code settings). */
  keyName?: (key: string) => string;
}

/** One line per problem, saying what was ignored and what still applies. */
export function formatSettingsProblem(p: SettingsProblem, wording: ProblemWording): string {
  const key = p.key === undefined ? '' : (wording.keyName ?? ((k: string) => `"${k}"`))(p.key);
  switch (p.kind) {
    case 'unreadable':
      return `cannot read ${p.source} (${p.detail}); its settings are ignored.`;
    case 'invalid-json':
      return `${p.source} is not valid JSON: ${p.detail}. Its settings are ignored until it is fixed (the file is left as it is).`;
    case 'not-an-object':
      return `${p.source} must hold a JSON object ({ "model": … }), but ${p.detail}; its settings are ignored.`;
    case 'invalid-value':
      return `${p.source}: ${key} is invalid (${p.detail}); this setting is ignored, the others apply.`;
    case 'unknown-key':
      return `${p.source}: unknown setting ${key} is ignored${p.detail ? ` (${p.detail})` : ''}.`;
    case 'user-only':
      return `${p.source}: ${key} is ignored: ${p.detail}.`;
    case 'api-key':
      return `${p.source}: ${key} looks like an API key and is ignored: keys are never read from settings. ${wording.apiKeyHint} Then remove it from ${p.source}.`;
  }
}
