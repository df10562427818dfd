// The log every part of the core writes to: the host decides where it goes (VS Code's "OpenDev"
// output channel, the CLI's --debug-file) and which levels are kept. Lines are for a bug report, so
// they say what happened with structured fields; no secret ever reaches one (log-line.ts redacts).

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Structured detail of a line: `key=value` after the message. Undefined fields are left out. */
export type LogFields = Readonly<Record<string, string | number | boolean | undefined>>;

export interface Logger {
  trace(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /**
   * Whether a line at `level` is kept. Callers ask only before building something costly (message
   * content at trace); the host's own filter decides for everything else.
   */
  enabled(level: LogLevel): boolean;
  /** A value that must never appear in a line (a configured API key): masked wherever it shows up. */
  redact(secret: string | undefined): void;
}

const nothing = (): void => undefined;

/** The default: logs nothing (tests, benchmarks, a host that gave no logger). */
export const NO_LOGGER: Logger = {
  trace: nothing,
  debug: nothing,
  info: nothing,
  warn: nothing,
  error: nothing,
  enabled: () => false,
  redact: nothing,
};

/** `logger` with every message prefixed by `area: ` ("mcp: server started"), so a reader can filter by area. */
export function scopedLogger(logger: Logger, area: string): Logger {
  const at = (level: LogLevel) => (message: string, fields?: LogFields) => logger[level](`${area}: ${message}`, fields);
  return {
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    enabled: (level) => logger.enabled(level),
    redact: (secret) => logger.redact(secret),
  };
}
