import { loadTemplate, renderTemplate } from '../templates';

/**
 * One subagent type (paper §2.2.7, appendix G). Every subagent is the same agent class as the main
 * agent; behaviour comes from the tool allow-list, the system prompt and the iteration budget.
 */
export interface SubagentSpec {
  /** The type name the model passes as `subagent_type` ("Code-Explorer"). */
  name: string;
  description: string;
  /** Path under templates/ of the system prompt ("subagents/code-explorer.md"); builtins. */
  systemPromptTemplate?: string;
  /** The system prompt itself; custom agents (the body of their markdown file). */
  systemPrompt?: string;
  /**
   * The tools this type asks for; undefined = the default safe read-only set. Use `subagentTools()`
   * for the final list: todo tools and present_plan are always removed, task_complete always added.
   */
  allowedTools: string[] | undefined;
  /** Model override for this type (the spawn call's `model` wins over it). */
  model?: string;
  /** Model calls per run (paper: 15). */
  maxIterations: number;
  /** Whether it may call spawn_subagent itself. */
  canSpawn: boolean;
  /** The types it may spawn when canSpawn (default: Code-Explorer). */
  spawnableTypes?: string[];
  /** Agent ids are `<idPrefix>-<6 hex>`; default: the type name in kebab case. */
  idPrefix?: string;
  /** No LLM: the manager shows the questions in the task through ui.askUser (the Ask-User type). */
  uiOnly?: boolean;
  /**
   * May be spawned in plan mode although its tools can write: the Planner, whose one write is its
   * plan file, held to it in every mode (its identity's `planFilesOnly`: the registry refuses any
   * other write). Every other type with a write-capable tool is refused in plan mode.
   */
  planModeSafe?: boolean;
  /** Where it was defined: builtin, the project's .opendev/agents or the user's ~/.opendev/agents. */
  source?: SubagentSource;
  /** The file a custom agent came from. */
  file?: string;
}

export type SubagentSource = 'builtin' | 'project' | 'user';

export const SUBAGENT_MAX_ITERATIONS = 15;

/** Tools that never reach a subagent: only the main agent coordinates the todo list and presents plans. */
export const MAIN_AGENT_ONLY_TOOLS: readonly string[] = [
  'write_todos',
  'update_todo',
  'complete_todo',
  'list_todos',
  'present_plan',
];

/** Code-Explorer's navigation set (appendix G), the core of every read-only type. */
export const EXPLORER_TOOLS: readonly string[] = ['read_file', 'search', 'list_files', 'find_symbol', 'find_referencing_symbols'];

/**
 * "All read-only tools" for the Planner, and the default for custom agents that name no tools.
 * Tools not registered (yet) are dropped when the schema is built.
 */
export const READ_ONLY_TOOLS: readonly string[] = [
  ...EXPLORER_TOOLS,
  'fetch_url',
  'web_search',
  'read_pdf',
  'analyze_image',
  'list_processes',
  'get_process_output',
  'search_tools',
  'invoke_skill',
];

/** "Code-Explorer", "code_explorer", "code explorer", "CODE-EXPLORER" → "codeexplorer". */
export function normalizeTypeName(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, '');
}

/** The spec a model-supplied `subagent_type` means, matched case-insensitively, snake/kebab alike. */
export function findSpec(specs: readonly SubagentSpec[], type: string): SubagentSpec | undefined {
  const wanted = normalizeTypeName(type);
  return specs.find((s) => normalizeTypeName(s.name) === wanted);
}

/**
 * The tool names a subagent of this type gets: its allow-list (or the read-only default), minus
 * the main-agent-only tools, minus spawning unless canSpawn, plus task_complete so it can finish.
 * Empty for UI-only types.
 */
export function subagentTools(spec: SubagentSpec): string[] {
  if (spec.uiOnly) return [];
  const requested = spec.allowedTools ?? [...READ_ONLY_TOOLS];
  const tools = requested.filter(
    (t) => !MAIN_AGENT_ONLY_TOOLS.includes(t) && (spec.canSpawn || (t !== 'spawn_subagent' && t !== 'get_subagent_output')),
  );
  if (!tools.includes('task_complete')) tools.push('task_complete');
  return [...new Set(tools)];
}

/** The system prompt of a spec: its inline prompt, or its template rendered with `vars`. */
export function subagentSystemPrompt(spec: SubagentSpec, vars: Record<string, string> = {}): string {
  const text = spec.systemPrompt ?? (spec.systemPromptTemplate ? loadTemplate(spec.systemPromptTemplate) : undefined);
  const all = { SUBAGENT_TYPE: spec.name, SUBAGENT_DESCRIPTION: spec.description, ...vars };
  if (text !== undefined) return renderTemplate(text, all);
  // Degrade rather than crash when a template is missing: the generic prompt, else the description.
  const generic = loadTemplate('subagents/generic.md');
  return generic === undefined ? spec.description : renderTemplate(generic, all);
}

/** Custom specs replace builtins (and each other) with the same normalized name: later lists win. */
export function mergeSpecs(...lists: ReadonlyArray<readonly SubagentSpec[]>): SubagentSpec[] {
  const byName = new Map<string, SubagentSpec>();
  for (const list of lists) for (const spec of list) byName.set(normalizeTypeName(spec.name), spec);
  return [...byName.values()];
}

/** The error for a subagent_type that matches no allowed type: it lists the valid ones. */
export function unknownTypeMessage(type: string, types: ReadonlyArray<{ name: string; description: string }>): string {
  if (types.length === 0) return `Unknown subagent type "${type}": this agent may not spawn any subagents.`;
  return `Unknown subagent type "${type}". Valid types:\n${types.map((t) => `- ${t.name}: ${t.description}`).join('\n')}`;
}

/** The id prefix of a type ("explorer" for Code-Explorer, the kebab-case name for others). */
export function idPrefixOf(spec: SubagentSpec): string {
  return spec.idPrefix ?? (spec.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'agent');
}
