import type { Agent } from './agent';

/**
 * A rebuilt agent (new settings: model, approval level, context window…) takes over the
 * conversation of the one it replaces: the messages, the cost so far and the mode. Build it
 * under the same session id, so its scratch folder, undo history and hooks go on; the hooks hear
 * the session resume. Not while either agent runs a turn.
 */
export function carryConversation(from: Agent, to: Agent): void {
  to.restore(from.messages, from.cost());
  to.setMode(from.mode);
  to.setThinkingLevel(from.thinkingLevel);
}
