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
  source?: 'builtin' | 'project' | 'user';
  /** The file a custom agent came from. */
  file?: string;
}

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

const builtins: SubagentSpec[] = [
  {
    name: 'Code-Explorer',
    description:
      'Read-only deep exploration of the codebase: finds where things are defined and used, traces flows and ' +
      'explains architecture. Returns a concise report with file:line references. Use for questions that need ' +
      'more than two or three searches.',
    systemPromptTemplate: 'subagents/code-explorer.md',
    allowedTools: [...EXPLORER_TOOLS],
    maxIterations: SUBAGENT_MAX_ITERATIONS,
    canSpawn: false,
    idPrefix: 'explorer',
  },
  {
    name: 'Planner',
    description:
      'Explores the codebase read-only and writes an implementation plan file with seven sections (goal, context, ' +
      'files to modify, files to create, implementation steps, verification, risks). Returns the plan path; then ' +
      'call present_plan with it. Use for non-trivial or multi-file changes and whenever the user asks for a plan.',
    systemPromptTemplate: 'subagents/planner.md',
    allowedTools: [...READ_ONLY_TOOLS, 'write_file', 'edit_file', 'spawn_subagent', 'get_subagent_output', 'ask_user', 'task_complete'],
    maxIterations: SUBAGENT_MAX_ITERATIONS,
    canSpawn: true,
    spawnableTypes: ['Code-Explorer'],
    idPrefix: 'planner',
    planModeSafe: true,
  },
  {
    name: 'PR-Reviewer',
    description:
      'Reviews a change set (a branch, a diff, the working tree) for correctness, design and test coverage, and ' +
      'returns prioritised findings with file:line references. Does not edit files.',
    systemPromptTemplate: 'subagents/pr-reviewer.md',
    allowedTools: [...EXPLORER_TOOLS, 'run_command'],
    maxIterations: SUBAGENT_MAX_ITERATIONS,
    canSpawn: false,
    idPrefix: 'pr-reviewer',
  },
  {
    name: 'Security-Reviewer',
    description:
      'Audits code for vulnerabilities (injection, auth, secrets, unsafe deserialisation, path traversal…) and ' +
      'returns findings with severity, confidence and file:line references. Does not edit files.',
    systemPromptTemplate: 'subagents/security-reviewer.md',
    allowedTools: [...EXPLORER_TOOLS, 'run_command'],
    maxIterations: SUBAGENT_MAX_ITERATIONS,
    canSpawn: false,
    idPrefix: 'security',
  },
  {
    name: 'Web-Clone',
    description:
      'Recreates the look of an existing web page: captures and analyses screenshots of the URL, then writes ' +
      'matching HTML/CSS/JS. Give it the URL and where to put the files.',
    systemPromptTemplate: 'subagents/web-clone.md',
    allowedTools: ['capture_web_screenshot', 'analyze_image', 'write_file', 'read_file', 'run_command', 'list_files'],
    maxIterations: SUBAGENT_MAX_ITERATIONS,
    canSpawn: false,
    idPrefix: 'web-clone',
  },
  {
    name: 'Web-Generator',
    description:
      'Builds a new web app or page from a specification (React/TypeScript/Tailwind unless told otherwise), ' +
      'in a folder you name, and checks that it builds.',
    systemPromptTemplate: 'subagents/web-generator.md',
    allowedTools: ['write_file', 'edit_file', 'run_command', 'list_files', 'read_file'],
    maxIterations: SUBAGENT_MAX_ITERATIONS,
    canSpawn: false,
    idPrefix: 'web-gen',
  },
  {
    name: 'Project-Init',
    description:
      'Analyses the repository (build, test and lint commands, layout, conventions) and writes OPENDEV.md, the ' +
      'project instruction file. Use for /init or when the user asks to set up project instructions.',
    systemPromptTemplate: 'subagents/project-init.md',
    // edit_file: write_file never replaces a file, so an existing OPENDEV.md (the user agreed) is edited.
    allowedTools: ['read_file', 'search', 'list_files', 'run_command', 'write_file', 'edit_file'],
    maxIterations: SUBAGENT_MAX_ITERATIONS,
    canSpawn: false,
    idPrefix: 'init',
  },
  {
    name: 'Ask-User',
    description:
      'No model: shows the user a structured survey and returns the answers. The task must be JSON in ' +
      'ask_user\'s format: {"questions": [{"header", "question", "options": [{"label", "description"}], "multiSelect"}]}. ' +
      'Prefer ask_user when you have it.',
    allowedTools: [],
    maxIterations: 0,
    canSpawn: false,
    idPrefix: 'ask-user',
    uiOnly: true,
  },
];

/** Appendix G's eight types. */
export const BUILTIN_SUBAGENTS: readonly SubagentSpec[] = builtins.map((spec) => ({ ...spec, source: 'builtin' }));

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
