// A saved conversation as the session/update notifications a client draws it from (session/load):
// what the user typed, the agent's answers, and each tool call with how it ended. Messages the
// harness wrote into the conversation (reminders, compaction summaries, notes) are not the user's
// words and are left out, as the chat leaves them out when it resumes a session.
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { Message } from '../core/messages';
import { originOf } from '../core/session/user-message-origin';
import { textContent, toolArguments, toolKind, toolLocations, toolTitle } from './tool-call-view';

export function replayUpdates(messages: readonly Message[], workspaceRoot: string): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      const origin = originOf(message);
      const typed = origin.kind === 'prompt' || origin.kind === 'followup' ? origin.text : undefined;
      if (typed) updates.push({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: typed } });
    } else if (message.role === 'assistant') {
      if (message.content) updates.push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: message.content } });
      for (const call of message.toolCalls) {
        const args = toolArguments(call.arguments);
        updates.push({
          sessionUpdate: 'tool_call',
          toolCallId: call.id,
          title: toolTitle(call.name, args),
          kind: toolKind(call.name),
          status: 'pending',
          locations: toolLocations(args, workspaceRoot),
          rawInput: args,
        });
      }
    } else if (message.role === 'tool') {
      updates.push({
        sessionUpdate: 'tool_call_update',
        toolCallId: message.toolCallId,
        status: message.isError ? 'failed' : 'completed',
        content: [textContent(message.summary ?? message.content)],
      });
    }
  }
  return updates;
}
