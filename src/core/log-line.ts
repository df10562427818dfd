// A Logger over any line sink: formats the message and its fields into one line and masks secrets
// before the sink sees it. The VS Code channel and the CLI's debug file are two sinks of it.
import type { LogFields, Logger, LogLevel } from './logger';
import { LOG_LEVELS } from './logger';
import { MIN_SECRET_LENGTH, redactSecrets } from './log-redaction';

export type LogSink = (level: LogLevel, line: string) => void;

export interface LineLoggerOptions {
  /** The least level kept ('off': none); default: every level (the sink filters, as VS Code's log channel does). */
  level?: () => LogLevel | 'off';
  /** Secrets known from the start (the CLI's key variables). */
  secrets?: Iterable<string | undefined>;
}

/** A field value as it reads in a line: bare when simple, JSON-quoted when it has spaces or quotes. */
function fieldValue(value: string | number | boolean): string {
  const text = String(value);
  return /^[^\s"=]+$/.test(text) ? text : JSON.stringify(text);
}

/** `message key=value key="two words"`, undefined fields left out. */
export function formatLogLine(message: string, fields?: LogFields): string {
  const parts = [message];
  for (const [key, value] of Object.entries(fields ?? {})) {
    if (value !== undefined) parts.push(`${key}=${fieldValue(value)}`);
  }
  return parts.join(' ');
}

export function lineLogger(sink: LogSink, options: LineLoggerOptions = {}): Logger {
  const secrets = new Set<string>();
  const redact = (secret: string | undefined) => {
    if (secret && secret.length >= MIN_SECRET_LENGTH) secrets.add(secret);
  };
  for (const secret of options.secrets ?? []) redact(secret);
  const enabled = (level: LogLevel) => {
    const least = options.level?.();
    return least === undefined || (least !== 'off' && LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(least));
  };
  const at = (level: LogLevel) => (message: string, fields?: LogFields) => {
    if (!enabled(level)) return;
    try {
      sink(level, redactSecrets(formatLogLine(message, fields), secrets));
    } catch {
      // a log that cannot be written never breaks what it describes
    }
  };
  return { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), enabled, redact };
}
