// What a session's front end needs of the connection: updates to send in order, and a question
// for the client. One per session, over the SDK's agent-side context.
import type { AgentContext, PermissionOption, RequestPermissionOutcome, SessionUpdate, ToolCallUpdate } from '@agentclientprotocol/sdk';

export interface AcpChannel {
  /** Sent in the order given; a failure to send (the client went away) is logged, not thrown. */
  update(update: SessionUpdate): void;
  /** Resolves when every update given so far was written. */
  flushed(): Promise<void>;
  requestPermission(toolCall: ToolCallUpdate, options: PermissionOption[], signal: AbortSignal): Promise<RequestPermissionOutcome>;
}

export function acpChannel(client: AgentContext, sessionId: string, log: (text: string) => void): AcpChannel {
  let queue: Promise<void> = Promise.resolve();
  return {
    update(update) {
      queue = queue.then(() => client.notify('session/update', { sessionId, update })).catch((err: unknown) => log(`session/update not sent: ${(err as Error).message}`));
    },
    flushed: () => queue,
    async requestPermission(toolCall, options, signal) {
      // Every update before the question reaches the client first (the tool call it is about).
      await queue;
      if (signal.aborted) return { outcome: 'cancelled' };
      const answer = await client.request('session/request_permission', { sessionId, toolCall, options }, { cancellationSignal: signal, stopWaitingOnCancel: true }).catch((err: unknown) => {
        if (signal.aborted) return { outcome: { outcome: 'cancelled' as const } };
        throw err;
      });
      return answer.outcome;
    },
  };
}
