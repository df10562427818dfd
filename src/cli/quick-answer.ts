import { HELP } from './help';
import { cliVersion } from './version';

const HELP_FLAGS = new Set(['--help', '-h']);

/**
 * What `opendev` answers without loading the agent: a command line of only --help / -h / --version
 * prints what the full CLI would (help wins, as there); anything else is the full CLI's to answer.
 */
export function quickAnswer(argv: readonly string[]): string | undefined {
  if (argv.length === 0 || !argv.every((arg) => arg === '--version' || HELP_FLAGS.has(arg))) return undefined;
  return argv.some((arg) => HELP_FLAGS.has(arg)) ? HELP : cliVersion();
}
