// Trusts a test's own folder through the real trust store, as `opendev trust --yes` would: tests of
// what a trusted project's configuration does (its hooks, its allow rules) start from here. Call it
// after writing the folder's configuration files: trust covers their content as it is now.
import { readProjectTrust, trustProject } from '../../src/core/trust/project-trust';

export async function trustFolder(home: string, workspaceRoot: string): Promise<void> {
  const where = { home, workspaceRoot };
  const problem = await trustProject(where, readProjectTrust(where).fingerprint);
  if (problem) throw new Error(problem);
}
