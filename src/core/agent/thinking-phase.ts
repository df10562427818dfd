import type { AssistantMessage, Message } from '../messages';
import { composeThinkingPrompt } from '../context/prompt/thinking-system-prompt';
import { loadTemplate, renderTemplate } from '../templates';
import { callModel, type TurnServices } from '../llm/model-call';
import type { RoleResolver } from '../llm/role-resolver';
import type { ThinkingLevel } from '../config/thinking-level';
import { withoutImages } from '../images/image-texts';

const WORDS: Record<Exclude<ThinkingLevel, 'off'>, number> = { low: 60, medium: 100, high: 150 };

/**
 * Phase 1 of an iteration: a reasoning call with NO tool schemas, so the model thinks instead of
 * acting; at HIGH a critique call and a refinement follow. Returns the final trace (or undefined
 * when thinking is off or produced nothing).
 */
export async function runThinkingPhase(
  level: ThinkingLevel,
  roles: RoleResolver,
  conversation: readonly Message[],
  vars: Record<string, string>,
  services: TurnServices,
): Promise<string | undefined> {
  if (level === 'off') return undefined;
  const thinker = roles.forRole('thinking');
  const words = String(WORDS[level]);
  const system = composeThinkingPrompt({ ...vars, MAX_WORDS: words });
  if (!thinker || !system) return undefined;
  // A thinking model that cannot read images gets a note naming them instead.
  const history = conversation.filter((m) => m.role !== 'system').map((m) => (thinker.capabilities?.vision ? m : withoutImages(m)));
  const ask = async (messages: Message[], purpose: 'thinking' | 'critique' | 'refinement' = 'thinking') => {
    const reply: AssistantMessage = { role: 'assistant', content: '', toolCalls: [] };
    const model = purpose === 'critique' ? roles.forRole('critique') ?? thinker : thinker;
    await callModel(reply, model, { messages, tools: [], purpose }, services, { streamText: false });
    return reply.content.trim();
  };

  let trace = await ask([{ role: 'system', content: system }, ...history]);
  if (!trace) return undefined;
  services.ui.onThinkingTrace?.(trace, 'thinking');
  if (level !== 'high' || services.signal.aborted) return trace;

  const critiquePrompt = loadTemplate('system/critique.md');
  const refinePrompt = loadTemplate('system/refine.md');
  if (!critiquePrompt || !refinePrompt) return trace;
  const critique = await ask([{ role: 'system', content: critiquePrompt }, { role: 'user', content: trace }], 'critique');
  if (!critique || services.signal.aborted) return trace;
  services.ui.onThinkingTrace?.(critique, 'critique');
  const refined = await ask(
    [
      { role: 'system', content: system },
      ...history,
      { role: 'user', content: renderTemplate(refinePrompt, { TRACE: trace, CRITIQUE: critique, MAX_WORDS: words }) },
    ],
    'refinement',
  );
  if (!refined) return trace;
  services.ui.onThinkingTrace?.(refined, 'refined');
  trace = refined;
  return trace;
}
