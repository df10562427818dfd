declare const OPENDEV_VERSION: string | undefined;

/**
 * OpenDev's version: package.json's, set by the bundler (`dev` in a build that does not define it).
 * The one number everything prints (`opendev --version`, the greeting, the MCP client info); the
 * README's status line is checked against package.json by a test.
 */
export function opendevVersion(): string {
  return typeof OPENDEV_VERSION === 'string' ? OPENDEV_VERSION : 'dev';
}
