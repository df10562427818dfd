import type { TokenUsage } from '../llm/provider';
import type { ProviderError } from '../llm/provider-error';

interface TurnBase {
  /** The final answer: task_complete's summary, the implicit answer, or the forced summary at the cap. */
  text: string;
  usage: TokenUsage;
  iterations: number;
}

/** How one user turn ended. `taskStatus` is task_complete's verdict when the agent called it. */
export type TurnResult =
  | (TurnBase & { status: 'completed'; taskStatus?: 'success' | 'failure' })
  | (TurnBase & { status: 'stopped' })
  | (TurnBase & { status: 'iteration_limit' })
  | (TurnBase & { status: 'failed'; error: ProviderError })
  /** A UserPromptSubmit hook refused the prompt: the model was not called, `reason` is for the user. */
  | (TurnBase & { status: 'blocked'; reason: string });
