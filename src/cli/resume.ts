import { relativeTime } from '../core/commands/format';
import type { LoadedSession, SessionStore } from '../core/session/session-store';
import { UsageError, type CliOptions } from './args';

/**
 * `--continue` → the project's latest session (none yet: a fresh start, with a notice);
 * `--resume <id>` → that session of this project, else a UsageError listing recent ids.
 */
export async function resolveResume(
  store: SessionStore,
  options: Pick<CliOptions, 'continue' | 'resume'>,
  workingDir: string,
  notice: (text: string) => void,
): Promise<LoadedSession | undefined> {
  if (options.resume !== undefined) {
    const loaded = await store.load(options.resume, workingDir);
    if (loaded) return loaded;
    const recent = (await store.list(workingDir)).slice(0, 10);
    const list =
      recent.length === 0
        ? ' There are no saved sessions for this project yet.'
        : `\nRecent sessions in this project:\n${recent.map((s) => `  ${s.id}  ${relativeTime(s.updatedAt).padEnd(11)}  ${s.title || '(untitled)'}`).join('\n')}`;
    throw new UsageError(`no session "${options.resume}" in ${workingDir}.${list}`);
  }
  if (options.continue) {
    const latest = await store.latest(workingDir);
    const loaded = latest ? await store.load(latest.id, workingDir) : undefined;
    if (!loaded) notice(`no earlier session in ${workingDir} to continue; starting a new one.`);
    return loaded;
  }
  return undefined;
}
