import { opendevVersion } from '../core/version';

/** The package's version (set by the bundler; `dev` when run from the tests' build). */
export function cliVersion(): string {
  return opendevVersion();
}
