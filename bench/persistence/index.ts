// Persistence, measured (issue 6): shadow-git snapshot time per step on a 20,000-file repository
// (cold and incremental), session load time for a 5,000-message session, and listing 1,000 sessions
// through the index vs. by scanning the files.
import { benchSessions } from './sessions';
import { benchSnapshots } from './snapshots';

export async function main(): Promise<void> {
  await benchSnapshots();
  await benchSessions();
}
