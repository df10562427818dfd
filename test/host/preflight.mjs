// The system programs the tests run for real, checked before anything is built: a machine that lacks
// one learns it in a second, with the line that installs it, not after the earlier stages.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** What the tests run (every stage uses each), by the Debian package that provides it. */
const needs = [
  { program: 'git', pkg: 'git' },
  { program: 'rg', pkg: 'ripgrep' },
  // The command sandbox (@anthropic-ai/sandbox-runtime on Linux).
  { program: 'bwrap', pkg: 'bubblewrap' },
  { program: 'socat', pkg: 'socat' },
  // The browser of the web tools and of the VS Code workbench the e2e tests drive.
  { program: process.env.OPENDEV_CHROMIUM || 'chromium', pkg: 'chromium' },
];

function onPath(program) {
  const candidates = program.includes('/') ? [program] : (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, program));
  return candidates.some((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** The Debian packages whose programs are not found. */
export function missingPackages() {
  return needs.filter((n) => !onPath(n.program)).map((n) => n.pkg);
}

/** The message for a machine that lacks them, with the line that installs them. */
export function missingPackagesMessage(missing) {
  return `The tests need system packages this machine lacks: ${missing.join(', ')}.\nInstall them and run again:\n  sudo apt-get install -y ${missing.join(' ')}`;
}
