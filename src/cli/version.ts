declare const OPENDEV_VERSION: string | undefined;

/** The package's version (set by the bundler; `dev` when run from the tests' build). */
export function cliVersion(): string {
  return typeof OPENDEV_VERSION === 'string' ? OPENDEV_VERSION : 'dev';
}
