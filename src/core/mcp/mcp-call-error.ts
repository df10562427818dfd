// What went wrong talking to an MCP server, in words the user and the model can act on.
import { mcpSdk } from '../lazy-libraries';

/** Why a call could not get an answer from the server; the tool adapter turns it into a ToolError. */
export type McpCallFailure = 'unavailable' | 'timeout' | 'crashed' | 'interrupted' | 'protocol';

export class McpCallError extends Error {
  constructor(
    readonly failure: McpCallFailure,
    message: string,
  ) {
    super(message);
    this.name = 'McpCallError';
  }
}

/** Why a server did not start: a missing command, no answer, an early exit; with the end of its stderr. */
export function describeStartFailure(err: unknown, stderr: string, startMs: number): string {
  const e = err as NodeJS.ErrnoException;
  let what = e?.message ?? String(err);
  const { ErrorCode, McpError } = mcpSdk();
  if (e?.code === 'ENOENT') what = `the command was not found (${what})`;
  else if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) what = `it did not answer within ${Math.round(startMs / 1000)} s`;
  else if (err instanceof McpError && err.code === ErrorCode.ConnectionClosed) what = 'it exited before it was ready';
  return withStderr(what, stderr);
}

/** `what`, followed by the last lines the server wrote to stderr (where servers say what is wrong). */
export function withStderr(what: string, stderr: string): string {
  const tail = stderr.trim();
  return tail ? `${what}; its stderr ends with: ${tail.split('\n').slice(-8).join('\n')}` : what;
}
