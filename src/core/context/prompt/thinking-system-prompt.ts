import { PromptComposer } from './prompt-composer';
import { PromptVariables } from './prompt-variables';

const thinkingComposer = new PromptComposer({ sectionsDir: 'system/thinking', fallbackTemplate: 'system/thinking.md' });

/**
 * The thinking phase's system prompt from templates/system/thinking/ (all sections always apply),
 * with `vars` (the agent's prompt variables plus MAX_WORDS) over the tool names. Undefined when
 * neither the sections nor the fallback template are installed.
 */
export function composeThinkingPrompt(vars: Readonly<Record<string, string>>): string | undefined {
  const text = thinkingComposer.compose({}, PromptVariables.forContext({}).with(vars));
  return text === '' ? undefined : text;
}
