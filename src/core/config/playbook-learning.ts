/** `OPENDEV_PLAYBOOK_LEARN`: 0/false/off or 1/true/on; undefined when unset or unreadable. */
export const PLAYBOOK_LEARN_ENV = 'OPENDEV_PLAYBOOK_LEARN';

/**
 * Whether the playbook learns (two extra calls on the compact model every `playbook.reflectEvery` messages). Hosts
 * default to on; the environment turns it off for scripted runs (the test suite) or cost-sensitive CI.
 */
export function playbookLearningFromEnv(env: NodeJS.ProcessEnv): boolean | undefined {
  const value = env[PLAYBOOK_LEARN_ENV]?.trim().toLowerCase();
  if (value === '0' || value === 'false' || value === 'off') return false;
  if (value === '1' || value === 'true' || value === 'on') return true;
  return undefined;
}
