// `--debug-file <path>`: the lines VS Code's "OpenDev" log channel shows, written to a file for a bug
// report (provider calls, MCP, hooks, undo, sandbox), one per line with its time and level. Keys are
// masked before a line is written; the file is the user's alone (0600).
import { closeSync, openSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { lineLogger } from '../core/log-line';
import { LOG_LEVELS, type Logger, type LogLevel } from '../core/logger';
import { isSecretEnvName } from '../core/process/child-env';
import { UsageError } from './args';

/** The least level written, from OPENDEV_LOG_LEVEL; default debug (trace adds the messages sent to the model). */
export function debugLevel(env: NodeJS.ProcessEnv): LogLevel {
  const wanted = env.OPENDEV_LOG_LEVEL?.trim().toLowerCase();
  if (!wanted) return 'debug';
  if ((LOG_LEVELS as readonly string[]).includes(wanted)) return wanted as LogLevel;
  throw new UsageError(`OPENDEV_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${env.OPENDEV_LOG_LEVEL}")`);
}

/** A logger appending to `path`; the value of every secret variable of `env` (keys, tokens, passwords) is masked. */
export function debugFileLogger(path: string, env: NodeJS.ProcessEnv): { logger: Logger; close(): void } {
  const level = debugLevel(env);
  let fd: number;
  try {
    fd = openSync(resolve(path), 'a', 0o600);
  } catch (err) {
    throw new UsageError(`--debug-file ${path} cannot be written: ${(err as Error).message}`);
  }
  const secrets = Object.entries(env).filter(([name]) => isSecretEnvName(name)).map(([, value]) => value);
  const logger = lineLogger((at, line) => void writeSync(fd, `${new Date().toISOString()} [${at}] ${line}\n`), { level: () => level, secrets });
  return { logger, close: () => closeSync(fd) };
}
