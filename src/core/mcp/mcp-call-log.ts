// One log line per MCP tool call: which server and tool, how long, how it ended. Never the arguments
// or the result (they may hold the user's data); a failure's message only.
import type { Logger } from '../logger';

interface CallResultLike {
  isError?: unknown;
}

/** `call`, unchanged, with a line written when it settles. */
export async function logToolCall<T extends CallResultLike>(log: Logger, server: string, tool: string, call: Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    const result = await call;
    log.info('tool call', { server, tool, ms: Date.now() - started, status: result.isError === true ? 'tool-error' : 'ok' });
    return result;
  } catch (err) {
    log.warn('tool call', { server, tool, ms: Date.now() - started, status: 'failed', error: err instanceof Error ? err.message : String(err) });
    throw err;
  }
}
