import { renderTemplate } from '../../templates';
import { INVOKE_SKILL_TOOL } from '../../skills/skill';
import type { PromptContext } from './prompt-context';

/**
 * The tools prompts refer to, by role. Prose says `${EDIT_TOOL.name}`, never `edit_file`, so a
 * renamed tool is renamed here once (a test checks every name against the builtin registry).
 */
export const PROMPT_TOOLS = {
  READ_TOOL: 'read_file',
  WRITE_TOOL: 'write_file',
  EDIT_TOOL: 'edit_file',
  LIST_TOOL: 'list_files',
  SEARCH_TOOL: 'search',
  RUN_TOOL: 'run_command',
  PROCESS_OUTPUT_TOOL: 'get_process_output',
  SUBAGENT_TOOL: 'spawn_subagent',
  SUBAGENT_OUTPUT_TOOL: 'get_subagent_output',
  TODO_TOOL: 'write_todos',
  UPDATE_TODO_TOOL: 'update_todo',
  COMPLETE_TODO_TOOL: 'complete_todo',
  ASK_TOOL: 'ask_user',
  PLAN_TOOL: 'present_plan',
  BATCH_TOOL: 'batch_tool',
  COMPLETE_TOOL: 'task_complete',
} as const;

/**
 * The one registry `${VAR}` references in prompt templates resolve through: tool names as
 * `${X_TOOL.name}`, and the runtime values of a PromptContext. A name with no value stays visible
 * in the output (renderTemplate's rule), so a typo shows up instead of silently vanishing.
 */
export class PromptVariables {
  private constructor(private readonly values: Readonly<Record<string, string>>) {}

  /** Tool names, plus whatever the context knows (absent facts define no variable). */
  static forContext(ctx: PromptContext): PromptVariables {
    const values: Record<string, string> = {};
    for (const [key, name] of Object.entries(PROMPT_TOOLS)) values[`${key}.name`] = name;
    const set = (key: string, value: string | undefined) => {
      if (value !== undefined && value !== '') values[key] = value;
    };
    set('WORKSPACE_ROOT', ctx.workspaceRoot);
    set('PLATFORM', ctx.platform);
    set('DATE', ctx.date);
    set('SESSION_ID', ctx.sessionId);
    set('SCRATCH_DIR', ctx.scratchDir);
    set('SUBAGENT_TYPES', ctx.subagentTypes?.join(', '));
    // The skills index: one line per skill; the tool's name only where it is registered.
    if (ctx.skills?.length) {
      set('SKILL_TOOL.name', INVOKE_SKILL_TOOL);
      set('SKILLS_INDEX', ctx.skills.map((s) => `- ${s.name}: ${s.description}`).join('\n'));
    }
    return new PromptVariables(values);
  }

  /** These variables plus `extra` (extra wins): per-call values such as the thinking phase's MAX_WORDS. */
  with(extra: Readonly<Record<string, string>>): PromptVariables {
    return new PromptVariables({ ...this.values, ...extra });
  }

  render(text: string): string {
    return renderTemplate(text, { ...this.values });
  }

  /** A plain copy, for code that renders templates itself (the agent's promptVars). */
  toRecord(): Record<string, string> {
    return { ...this.values };
  }
}
