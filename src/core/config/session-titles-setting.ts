/**
 * Where a session's title comes from (setting `sessionTitles`). `first-prompt`: the user's first
 * message, never a model call. `model`: the compact model names every session after its first
 * exchange (the paper's background title). `when-needed` (the default): the first prompt when it
 * makes a usable title (see titleFromPrompt), the compact model only when it does not.
 */
export const SESSION_TITLES = ['when-needed', 'model', 'first-prompt'] as const;
export type SessionTitles = (typeof SESSION_TITLES)[number];

export const DEFAULT_SESSION_TITLES: SessionTitles = 'when-needed';

/** `OPENDEV_SESSION_TITLES`: 0/false/off (first-prompt), 1/true/on (model), or a value's name. */
export const SESSION_TITLES_ENV = 'OPENDEV_SESSION_TITLES';

/** The variable's choice; undefined when unset or unreadable (scripted runs and CI turn model titles off with 0). */
export function sessionTitlesFromEnv(env: NodeJS.ProcessEnv): SessionTitles | undefined {
  const value = env[SESSION_TITLES_ENV]?.trim().toLowerCase();
  if (value === '0' || value === 'false' || value === 'off') return 'first-prompt';
  if (value === '1' || value === 'true' || value === 'on') return 'model';
  return (SESSION_TITLES as readonly string[]).includes(value ?? '') ? (value as SessionTitles) : undefined;
}
