import type { Message } from '../messages';
import type { TurnServices } from '../llm/model-call';

/**
 * What the executor asks of the agent's memory (paper §2.3.5–2.3.6). Every method is optional:
 * without a memory the agent reasons over the whole history and uses the system prompt as built.
 */
export interface ConversationMemory {
  /**
   * The messages the thinking phase reasons over instead of the whole history: the episodic
   * summary, the last exchanges verbatim and the current query (dual memory).
   */
  thinkingView?(history: readonly Message[], services: TurnServices): Promise<Message[]>;
  /** Text appended to the dynamic system prompt for this query (the playbook's selected bullets). */
  promptAddendum?(query: string): Promise<string | undefined>;
  /** After every iteration: the reflector's cadence and the episodic summary's regeneration. */
  afterIteration?(history: readonly Message[], services: TurnServices): Promise<void>;
}
