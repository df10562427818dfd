// Where OpenDev keeps user-global state: `OPENDEV_HOME`, default `~/.opendev` (see DESIGN.md "Storage").
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const OPENDEV_HOME_ENV = 'OPENDEV_HOME';

/** `OPENDEV_HOME` (a leading `~` is expanded, relative paths resolve from the cwd), else `~/.opendev`. */
export function resolveOpendevHome(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const configured = env[OPENDEV_HOME_ENV]?.trim();
  if (!configured) return join(home, '.opendev');
  if (configured === '~') return home;
  if (configured.startsWith('~/') || configured.startsWith('~\\')) return join(home, configured.slice(2));
  return resolve(configured);
}

/** The well-known places under the OpenDev home. Nothing is created here. */
export interface OpendevPaths {
  home: string;
  settingsFile: string;
  permissionsFile: string;
  skillsDir: string;
  cacheDir: string;
  /** models.dev data, one `<provider>.json` per provider plus the `.last_sync` marker. */
  providerCacheDir: string;
  projectsDir: string;
  snapshotDir: string;
  scratchDir: string;
}

export function opendevPaths(home: string = resolveOpendevHome()): OpendevPaths {
  const cacheDir = join(home, 'cache');
  return {
    home,
    settingsFile: join(home, 'settings.json'),
    permissionsFile: join(home, 'permissions.json'),
    skillsDir: join(home, 'skills'),
    cacheDir,
    providerCacheDir: join(cacheDir, 'providers'),
    projectsDir: join(home, 'projects'),
    snapshotDir: join(home, 'snapshot'),
    scratchDir: join(home, 'scratch'),
  };
}
