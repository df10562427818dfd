import { loadTemplate } from '../../templates';
import { joinPromptParts, PromptComposer, type TwoPartPrompt } from './prompt-composer';
import type { MainPromptContext } from './prompt-context';
import { PromptVariables } from './prompt-variables';
import { loadProjectInstructions, projectInstructionsPrompt } from './project-instructions';

export interface MainPromptOptions {
  /** OPENDEV_HOME, where the user's own OPENDEV.md lives; default from the environment. */
  home?: string;
  /** Unusable section files and unreadable instruction files. */
  onWarning?: (message: string) => void;
}

/**
 * The main agent's system prompt. Stable (cached): templates/system/main.md (identity) and the
 * cacheable sections of templates/system/main/. Dynamic: the environment (workspace, platform, date),
 * the non-cacheable sections, and the project's and user's instruction files.
 */
export function buildMainSystemPrompt(ctx: MainPromptContext, options: MainPromptOptions = {}): TwoPartPrompt {
  const variables = PromptVariables.forContext(ctx);
  const sections = new PromptComposer({
    sectionsDir: 'system/main',
    identityTemplate: 'system/main.md',
    fallbackTemplate: 'system/fallback.md',
    onWarning: options.onWarning,
  }).composeTwoPart(ctx, variables);
  const environment = variables.render(loadTemplate('system/environment.md') ?? '');
  const instructions = projectInstructionsPrompt(
    loadProjectInstructions({ workspaceRoot: ctx.workspaceRoot, home: options.home, onWarning: options.onWarning }),
  );
  return { stable: sections.stable, dynamic: joinPromptParts(environment, sections.dynamic, instructions) };
}
