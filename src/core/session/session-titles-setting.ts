/** `OPENDEV_SESSION_TITLES`: 0/false/off or 1/true/on; undefined when unset or unreadable. */
export const SESSION_TITLES_ENV = 'OPENDEV_SESSION_TITLES';

/**
 * Whether sessions get a title from the compact model after the first exchange (one small extra
 * call, in the background). Core defaults to off; the hosts turn it on, and the environment turns
 * it off for scripted runs (the test suite) or cost-sensitive CI.
 */
export function sessionTitlesFromEnv(env: NodeJS.ProcessEnv): boolean | undefined {
  const value = env[SESSION_TITLES_ENV]?.trim().toLowerCase();
  if (value === '0' || value === 'false' || value === 'off') return false;
  if (value === '1' || value === 'true' || value === 'on') return true;
  return undefined;
}
