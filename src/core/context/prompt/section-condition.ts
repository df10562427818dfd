import type { PromptContext } from './prompt-context';

/** The conditions a section's frontmatter may name; anything else is a load error. */
export const SECTION_CONDITIONS = [
  'always',
  'in_git_repo',
  'has_subagents',
  'todo_enabled',
  'provider:openai',
  'provider:anthropic',
  'provider:fireworks',
  'session_id',
  'has_skills',
] as const;
export type SectionCondition = (typeof SECTION_CONDITIONS)[number];

/** Whether a section with this condition belongs in a prompt for `ctx`. */
export function conditionHolds(condition: SectionCondition, ctx: PromptContext): boolean {
  switch (condition) {
    case 'always':
      return true;
    case 'in_git_repo':
      return ctx.inGitRepo === true;
    case 'has_subagents':
      return (ctx.subagentTypes?.length ?? 0) > 0;
    case 'todo_enabled':
      return ctx.todoEnabled === true;
    case 'session_id':
      return Boolean(ctx.sessionId);
    case 'has_skills':
      return (ctx.skills?.length ?? 0) > 0;
    case 'provider:openai':
    case 'provider:anthropic':
    case 'provider:fireworks':
      return ctx.provider === condition.slice('provider:'.length);
  }
}
