// A real ACP client (the SDK's client side) on a real stdio pipe to `node dist/cli.js acp`: what
// an editor does. It records every session/update and answers permission requests as a test says.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import {
  client,
  ndJsonStream,
  type ClientConnection,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import { cli, workspace } from '../cli/cli-harness';
import type { AcpEditor } from './acp-editor';

export type PermissionAnswer = (request: RequestPermissionRequest, signal: AbortSignal) => Promise<RequestPermissionResponse> | RequestPermissionResponse;

export interface AcpClient {
  connection: ClientConnection;
  process: ChildProcessWithoutNullStreams;
  /** Every session/update, in order of arrival. */
  updates: SessionNotification[];
  permissions: RequestPermissionRequest[];
  /** What the agent wrote on stderr (its log). */
  stderr(): string;
  /** How the next permission requests are answered (default: the first option). */
  answer: PermissionAnswer;
  close(): Promise<void>;
}

/** Starts the agent with `env` (the provider, OPENDEV_HOME) and connects to it; `editor` answers fs/* and terminal/*. */
export function startAcpClient(env: Record<string, string>, args: string[] = [], editor?: AcpEditor): AcpClient {
  const clean = { ...process.env };
  for (const key of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'OPENDEV_PROVIDER', 'OPENDEV_MODEL', 'OPENDEV_THINKING']) delete clean[key];
  const child = spawn(process.execPath, [cli, 'acp', ...args], { env: { ...clean, ...env }, cwd: workspace });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  const stream = ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
  const self: AcpClient = {
    connection: undefined as unknown as ClientConnection,
    process: child,
    updates: [],
    permissions: [],
    stderr: () => stderr,
    answer: (request) => ({ outcome: { outcome: 'selected', optionId: request.options[0]!.optionId } }),
    async close() {
      self.connection.close();
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.stdin.end();
        await exited;
      }
    },
  };
  const app = client({ name: 'opendev-test-client' })
    .onNotification('session/update', ({ params }) => void self.updates.push(params))
    .onRequest('session/request_permission', ({ params, signal }) => {
      self.permissions.push(params);
      return self.answer(params, signal);
    });
  self.connection = (editor ? editor.register(app) : app).connect(stream);
  return self;
}

/** The updates of one session of one kind. */
export function updatesOf<K extends SessionUpdate['sessionUpdate']>(c: AcpClient, sessionId: string, kind: K): Array<Extract<SessionUpdate, { sessionUpdate: K }>> {
  return c.updates.filter((n) => n.sessionId === sessionId && n.update.sessionUpdate === kind).map((n) => n.update as Extract<SessionUpdate, { sessionUpdate: K }>);
}

/** The text of a session's chunks of one kind, joined. */
export function textOf(c: AcpClient, sessionId: string, kind: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk'): string {
  return updatesOf(c, sessionId, kind)
    .map((u) => (u.content.type === 'text' ? u.content.text : ''))
    .join('');
}
