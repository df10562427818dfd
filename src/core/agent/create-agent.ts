import { platform } from 'node:os';
import { dirname, join } from 'node:path';
import { opendevPaths, resolveOpendevHome } from '../config/opendev-home';
import { newSessionId } from '../session-id';
import type { AgentHooks } from '../hooks/agent-hooks';
import { SessionHooks } from '../hooks/session-hooks';
import { composeLifecycles } from '../hooks/tool-hooks';
import { loadHooksConfig, type LoadedHooksConfig } from '../hooks/config';
import { readProjectTrust } from '../trust/project-trust';
import { MCP_CONFIG_SOURCES, unchangedSince } from '../trust/project-files';
import { ServerModelDirectory } from '../llm/server-models/server-model-directory';
import { CapabilityCatalog } from '../llm/capabilities/catalog';
import { CostTracker } from '../llm/cost-tracker';
import type { RoleSettings } from '../config/model-role-settings';
import { ModelRoles, type ProviderFactory } from '../llm/model-roles';
import type { ModelCallObserver } from '../llm/observed-provider';
import type { HostPorts } from '../host';
import type { Message } from '../messages';
import { FileTimeTracker } from '../tools/file-time-tracker';
import { StagedCompactor, type CompactionEvent } from '../context/compaction/staged-compactor';
import { FullCompactor } from '../context/compaction/full-compaction';
import { preCompactHook, type BeforeCompaction } from '../context/compaction/pre-compact-hook';
import { createAgentMemory } from '../memory/create-agent-memory';
import { buildMainSystemPrompt } from '../context/prompt/main-system-prompt';
import { mainPromptContext } from '../context/prompt/prompt-context';
import { PromptVariables } from '../context/prompt/prompt-variables';
import { createToolOutputOffloader, type ShapeResult } from '../context/tool-output-offload';
import type { ApprovalLevel } from '../config/approval-level';
import { sessionApprovalGate } from '../safety/approval-gate';
import { undoBudgetFromEnv } from '../undo/undo-budget-env';
import { UndoManager, type UndoSettings } from '../undo/undo-manager';
import type { ToolLifecycle } from '../tools/tool-lifecycle';
import { ProcessManager, type ProcessManagerOptions } from '../process/process-manager';
import { SessionShell, type ShellSettings } from '../process/session-shell';
import { loadCustomAgents } from '../subagents/custom-agents';
import { BUILTIN_SUBAGENTS } from '../subagents/builtin-agents';
import { mergeSpecs, subagentSystemPrompt, subagentTools, type SubagentSpec } from '../subagents/specs';
import { SubagentManager, type SubagentRunner } from '../subagents/subagent-manager';
import { createInvokeSkillTool } from '../skills/invoke-skill-tool';
import { loadSkills } from '../skills/skill-loader';
import { loadTemplate, renderTemplate } from '../templates';
import { TodoStore } from '../todos/todo-store';
import { createBuiltinRegistry } from '../tools/builtin-tools';
import { WebSession } from '../web/web-session';
import type { WebSettings } from '../config/web-settings';
import type { ToolRegistry } from '../tools/registry';
import type { ContextInfo, UICallback } from '../ui';
import { Agent } from './agent';
import { DEFAULT_THINKING_CADENCE, type ThinkingCadence } from '../config/thinking-cadence';
import { DEFAULT_REFLECT_EVERY, DEFAULT_SUMMARY_EVERY } from '../config/memory-cadence';
import type { ThinkingLevel } from '../config/thinking-level';
import { createUiRelay } from './ui-relay';
import { FirstAnswerGate } from './first-answer-gate';
import { McpHub, type McpHubOptions } from '../mcp/mcp-hub';
import { withMcpServers } from '../mcp/mcp-prompt';
import type { SandboxSettings } from '../config/sandbox-settings';
import { CommandSandbox } from '../sandbox/command-sandbox';
import { sandboxNotice } from '../sandbox/sandbox-notice';

export interface MainAgentOptions {
  /** The provider per model role; only `action` is required (the others fall back to it). */
  roles: RoleSettings;
  workspaceRoot: string;
  /**
   * The editor's other workspace folders (a multi-root workspace): read_file may read them by
   * absolute path, as context; edits and commands stay in `workspaceRoot`.
   */
  otherFolders?: readonly string[];
  thinkingLevel?: ThinkingLevel;
  /** Which steps make the thinking call (setting `thinkingCadence`); default DEFAULT_THINKING_CADENCE. */
  thinkingCadence?: ThinkingCadence;
  maxIterations?: number;
  /** OPENDEV_HOME, for user-level custom agents and the capability cache; default from the environment. */
  home?: string;
  /** A shared capability catalogue (hosts keep one); default: a new one, loaded here. */
  catalog?: CapabilityCatalog;
  /** What the host offers the tools (the VS Code terminal view, ripgrep's path); absent in plain runs. */
  host?: HostPorts;
  /** Limits and the tasks folder for run_command and background tasks (tests shorten the limits). */
  processes?: ProcessManagerOptions;
  /** Which tool calls ask the user first; default semi-auto. */
  approvalLevel?: ApprovalLevel;
  /** Names this agent's scratch folder and is given to hooks; default a new 8-character id. */
  sessionId?: string;
  /**
   * Let the playbook learn: the reflector and curator update the project's playbook every
   * `playbookReflectEvery` messages (two extra calls on the compact model, in the background). Off
   * by default; the playbook's bullets reach the prompt either way.
   */
  playbookLearning?: boolean;
  /** Messages the playbook's reflector waits for between two reflections (setting `playbook.reflectEvery`); default DEFAULT_REFLECT_EVERY. */
  playbookReflectEvery?: number;
  /** New messages before dual memory's episodic summary is made again (setting `memory.summaryEvery`); default DEFAULT_SUMMARY_EVERY. */
  episodicSummaryEvery?: number;
  /**
   * Context management (large tool outputs offloaded, staged compaction); default on. Off only to
   * measure what it saves (bench/context): the raw conversation then goes to the model.
   */
  contextManagement?: boolean;
  /**
   * Undo snapshots (budget, size cap, warm-up); false turns undo off (benchmarks). Default on, with
   * the budget OPENDEV_UNDO_BUDGET_MS gives when it is set.
   */
  undo?: Partial<UndoSettings> | false;
  /**
   * MCP servers: default those of OPENDEV_HOME/settings.json, .mcp.json and .opendev/settings.json;
   * false turns MCP off; tests pass the servers (`load`), bench/mcp also `eager`; `unattended`
   * (`opendev -p`): nobody can allow a project's server, so only those trusted before start.
   */
  mcp?: false | Pick<McpHubOptions, 'load' | 'eager' | 'timeouts' | 'unattended'>;
  /** `web_search_provider` and `chromium_path`; default DuckDuckGo and a browser found on the machine. */
  web?: WebSettings;
  /**
   * The user trusts the folder's configuration (core/trust): its hooks run, its allow rules apply and
   * its MCP servers start without a question. Default: what OPENDEV_HOME/trust.json says now.
   */
  projectTrusted?: boolean;
  /** Notices of the host's for the first turn's front end (what an untrusted folder was not allowed to do). */
  notices?: ReadonlyArray<{ text: string; level: 'info' | 'warning' }>;
  /** The OS sandbox commands run in (settings `sandbox.*`); default: none, commands run as the user (tests, benchmarks). */
  sandbox?: SandboxSettings;
  /**
   * The user's shell and their terminal environment: commands run in it with the environment their
   * profile sets up (read once, by the first command). Absent: bash with our own environment (tests, benchmarks).
   */
  shell?: ShellSettings;
  /** Saves a host the user allowed "always" to their `sandbox.network.allow`; absent: it holds for the session. */
  sandboxHosts?: (host: string) => Promise<void>;
  /** Told about every model call of the session (subagents', memory's and titles' too) with its purpose: bench/cost. */
  onModelCall?: ModelCallObserver;
  /**
   * Builds the provider clients instead of createProvider: a host's way to add providers only it
   * can build (VS Code's Language Model API), delegating every other kind to createProvider.
   */
  createProvider?: ProviderFactory;
}

const DEFAULT_MAX_ITERATIONS = 50;

/** What the main agent and its subagents share for a session. */
interface SessionServices {
  sessionId: string;
  /** `OPENDEV_HOME/scratch/<session>/`: offloaded tool outputs, compaction archives (created on first use). */
  scratchDir: string;
  /** PreCompact hooks before every full compaction (main agent and subagents). */
  preCompact: BeforeCompaction;
  registry: ToolRegistry;
  workspaceRoot: string;
  vars: Record<string, string>;
  environment: string;
  cost: CostTracker;
  host?: HostPorts;
  processes: ProcessManager;
  files: FileTimeTracker;
  /** The approval step before every call; one per session, so "always allow" holds for subagents too. */
  lifecycle: ToolLifecycle;
  /** The user's hooks (settings read once); each agent gets its own set, its tool hooks before the approval step. */
  hooks: SessionHooks;
  manager?: SubagentManager;
  /** The folders of folder-layout skills and the workspace's other folders: every agent may read their files. */
  skillDirs?: readonly string[];
}

/**
 * The AgentFactory of the paper, as a function: skills → subagents → main agent, in that order,
 * each ready when built. Throws MissingApiKeyError when the action model has no key, MissingBaseUrlError when its OpenAI-compatible server has no address.
 */
export async function createMainAgent(options: MainAgentOptions): Promise<Agent> {
  const vars = { WORKSPACE_ROOT: options.workspaceRoot, PLATFORM: platform(), DATE: new Date().toISOString().slice(0, 10) };
  // What the first request does not need waits until its answer starts (or the session idles).
  const afterFirstAnswer = new FirstAnswerGate();
  const catalog = options.catalog ?? new CapabilityCatalog({ home: options.home, holdRefresh: (start) => afterFirstAnswer.run(start) });
  await catalog.load();
  // An OpenAI-compatible server is asked about its model first (Ollama: the context window, whether it calls tools).
  const action = options.roles.action;
  if (action.provider === 'openai-compatible' && action.baseUrl) await new ServerModelDirectory(catalog).describe({ baseUrl: action.baseUrl, ...(action.apiKey ? { apiKey: action.apiKey } : {}) }, action.model);
  const log = options.host?.logger;
  const sessionId = options.sessionId ?? newSessionId();
  // The session's id keys OpenAI's prompt cache: its calls share a prefix, a resumed session keeps its key.
  const providerOptions = { promptCacheKey: `opendev-${sessionId}` };
  const roles = new ModelRoles(options.roles, catalog, { ...(options.createProvider ? { createProvider: options.createProvider } : {}), ...(options.onModelCall ? { observe: options.onModelCall } : {}), onAnswer: () => afterFirstAnswer.open(), providerOptions, ...(log ? { log } : {}) });
  roles.forRole('action'); // fails now, not at the first message, when the key or the server's address is missing
  const relay = createUiRelay();
  for (const notice of options.notices ?? []) relay.ui.onNotice?.(notice.text, notice.level);
  // The web tools' browser starts on first use and closes with the session (dispose below).
  const web = new WebSession({ settings: options.web });
  const registry = createBuiltinRegistry(options.host, web);
  const approvalLevel = options.approvalLevel ?? 'semi-auto';
  const home = options.home ?? resolveOpendevHome();
  const projectTrusted = options.projectTrusted ?? readProjectTrust({ home, workspaceRoot: options.workspaceRoot }).trusted;
  log?.info('session: agent built', { sessionId, workspace: options.workspaceRoot, projectTrusted, approval: options.approvalLevel ?? 'semi-auto', provider: options.roles.action.provider, model: options.roles.action.model });
  const scratchDir = join(opendevPaths(options.home ?? resolveOpendevHome()).scratchDir, sessionId);
  // Commands run in the OS sandbox (looked up once the first request has left, or by the first command), told once how they run.
  const sandbox = options.sandbox && createSessionSandbox(options, { projectTrusted, readableDirs: () => [dirname(scratchDir), ...(services.skillDirs ?? [])], ui: relay.ui, afterFirstAnswer });
  // The user's shell: chosen now, their profile read by the first command (a failure is told once).
  const shell = options.shell && new SessionShell(options.shell, (text) => relay.ui.onNotice?.(text, 'warning'));
  // The user's and the project's hooks (settings files read once, now): the session's agents and its compactions.
  const hooksConfig = loadHooksConfig({ workspaceRoot: options.workspaceRoot, opendevHome: options.home, projectTrusted });
  const services: SessionServices = {
    sessionId,
    scratchDir,
    preCompact: preCompactHook(hooksConfig, { workspaceRoot: options.workspaceRoot, sessionId, onWarning: (m) => relay.ui.onNotice?.(`Hook: ${m}`, 'warning') }),
    registry,
    workspaceRoot: options.workspaceRoot,
    vars,
    environment: renderTemplate(loadTemplate('system/environment.md') ?? '', vars),
    cost: new CostTracker(),
    host: options.host,
    // One process manager per session: the main agent's and its subagents' commands and tasks.
    processes: new ProcessManager({ home: options.home, ...options.processes, ...(sandbox ? { sandbox } : {}), ...(shell ? { shell } : {}) }),
    files: new FileTimeTracker(),
    // Danger and permission rules (OPENDEV_HOME and .opendev/permissions.json), then the level; decisions to audit.jsonl.
    lifecycle: sessionApprovalGate(registry, () => approvalLevel, {
      home,
      workspaceRoot: options.workspaceRoot,
      projectTrusted,
      ...(sandbox ? { sandboxed: () => sandbox.active() } : {}),
      // cmd.exe or PowerShell (Windows without Git Bash): the reader cannot judge their lines.
      ...(shell && !shell.judgeable ? { foreignShell: shell.choice.file } : {}),
    }),
    hooks: sessionHooks(hooksConfig, options, sessionId, relay.ui, registry),
  };
  // Undo, after the approval step (only calls that really run are snapshotted); subagents' writes
  // count toward the main agent's step that spawned them.
  const undo = await sessionUndo(options, sessionId, registry, relay.ui, afterFirstAnswer);
  if (undo) services.lifecycle = composeLifecycles(services.lifecycle, undo.lifecycle);

  // Phase 1, skills: builtin, user, project (.claude/skills, then .opendev/skills; later wins). Only
  // their index goes into the prompt; invoke_skill loads a body (subagents that list it may too).
  const skills = loadSkills({ workspaceRoot: options.workspaceRoot, home: options.home });
  if (skills.size > 0) registry.register(createInvokeSkillTool(skills));
  services.skillDirs = [...skills.skillDirs(), ...(options.otherFolders ?? [])];
  // Problems found while building wait in the relay for the first turn's front end.
  if (skills.warnings.length > 0) relay.ui.onNotice?.(['Some skill files have problems (/skills lists them again):', ...skills.warnings.map((w) => `  ${w}`)].join('\n'), 'warning');
  // Phase 2, subagents: builtin specs, then custom agents from the user and the project.
  const custom = loadCustomAgents({ workspaceRoot: options.workspaceRoot, home: options.home });
  for (const warning of custom.warnings) relay.ui.onNotice?.(warning, 'warning');
  // MCP servers start on first use; their tools join the registry deferred (search_tools finds them).
  // Subagents have allow-lists, so they never see MCP tools.
  const mcp = await sessionMcpHub({ ...options, projectTrusted }, services, relay.ui);
  const runSubagent: SubagentRunner = async (spec, task, run) => {
    // SubagentStart hooks may refuse the spawn (the model reads why) or give the subagent context.
    const start = await services.hooks.subagentStart(spec.name, run.agentId, run.signal);
    if (start.refused !== undefined) return { status: 'failed', summary: `A SubagentStart hook refused to start ${spec.name}: ${start.refused}`, history: run.history };
    const hooks = services.hooks.forSubagent(spec.name, run.agentId, start.context);
    const agent = buildSubagent(spec, run.model ? roles.withModelOverride(run.model) : roles, services, hooks);
    if (Array.isArray(run.history)) agent.restore(run.history as Message[]);
    const result = await agent.runTurn(task, subagentUI(relay.ui), run.signal);
    const status = result.status === 'completed' ? (result.taskStatus === 'failure' ? 'failed' : 'completed') : result.status === 'stopped' ? 'stopped' : 'failed';
    const summary = result.status === 'failed' ? `The subagent's model call failed: ${result.error.message}` : result.text;
    return { status, summary, history: [...agent.messages] };
  };
  const specs = mergeSpecs(BUILTIN_SUBAGENTS, custom.specs);
  // An MCP tool a custom agent names may not be registered yet: it counts as writing until known.
  const isWriteTool = (tool: string) => registry.get(tool)?.readOnly === false || (registry.get(tool) === undefined && tool.startsWith('mcp__'));
  const manager = new SubagentManager({ specs, run: runSubagent, ui: relay.ui, isWriteTool });
  services.manager = manager;

  // Phase 3, the main agent with every tool.
  const todos = new TodoStore();
  todos.onChange((list) => relay.ui.onTodos?.(list));
  const promptContext = { ...mainPromptContext({ workspaceRoot: options.workspaceRoot, action: options.roles.action, subagentTypes: specs.map((s) => s.name), sessionId, scratchDir: services.scratchDir }), skills: skills.summaries() };
  const onPromptWarning = (message: string) => relay.ui.onNotice?.(message, 'warning');
  // Dual memory for thinking and the project's ACE playbook: the main agent only.
  const memory = createAgentMemory({
    roles,
    settings: options.roles,
    workspaceRoot: options.workspaceRoot,
    home: options.home,
    learn: options.playbookLearning ?? false,
    reflectEvery: options.playbookReflectEvery ?? DEFAULT_REFLECT_EVERY,
    summaryEvery: options.episodicSummaryEvery ?? DEFAULT_SUMMARY_EVERY,
    onWarning: onPromptWarning,
  });
  const full = fullCompactor(services, roles, 'main', relay.ui);
  const hooks = services.hooks.forMainAgent();
  const economy = outputEconomy(services, services.registry.get('spawn_subagent') !== undefined);
  const contextManaged = options.contextManagement !== false;
  return new Agent({
    identity: { name: 'main', isSubagent: false },
    sessionId,
    workspaceRoot: options.workspaceRoot,
    model: {
      roles,
      // Composed from templates/system/main/ sections; the thinking phase gets the same variables.
      systemPrompt: withMcpServers(buildMainSystemPrompt(promptContext, { home: options.home, onWarning: onPromptWarning }), options.mcp && options.mcp.eager ? undefined : mcp),
      promptVars: PromptVariables.forContext(promptContext).toRecord(),
      maxIterations: options.maxIterations ?? DEFAULT_MAX_ITERATIONS,
      thinkingLevel: options.thinkingLevel ?? 'off',
      thinkingCadence: options.thinkingCadence ?? DEFAULT_THINKING_CADENCE,
    },
    tools: {
      registry: services.registry,
      todos,
      subagents: manager,
      host: services.host,
      processes: services.processes,
      files: services.files,
      // PreToolUse hooks first (they may refuse or rewrite a call), then the approval step, so the
      // user approves the call that will really run.
      lifecycle: composeLifecycles(hooks.tools, services.lifecycle),
      readableDirs: economy.readableDirs,
      // Images the user attaches, saved where analyze_image can look at them again.
      imagesDir: join(services.scratchDir, 'images'),
    },
    context: {
      ...(contextManaged ? { shapeResult: economy.shapeResult } : {}),
      // Staged compaction (mask → prune → aggressive mask → full) by pressure, each stage reported to the user.
      ...(contextManaged
        ? {
            compaction: new StagedCompactor({
              onEvent: compactionNotices(relay.ui),
              onPressure: (info) => relay.ui.onContext?.(info),
              // Should never happen; when it does, the user sees what was repaired before the provider did.
              onRepair: (repairs) => relay.ui.onNotice?.(`Repaired the conversation before sending it: ${repairs.join('; ')}`, 'warning'),
              fullCompaction: full.stage,
            }).hook,
          }
        : {}),
      compact: (history, request) => full.run(history, { trigger: 'manual', ...request }),
      memory,
    },
    session: {
      cost: services.cost,
      hooks,
      onTurnUI: relay.setTarget,
      undo,
      skills,
      mcp,
      dispose: () => {
        manager.stopAll();
        services.processes.dispose();
        if (!options.catalog) catalog.close();
        return Promise.all([memory.dispose(), undo?.dispose(), web.dispose(), mcp?.dispose()]).then(() => undefined);
      },
    },
  });
}

function buildSubagent(spec: SubagentSpec, roles: ModelRoles, services: SessionServices, hooks: AgentHooks): Agent {
  const allowed = new Set(subagentTools(spec));
  const economy = outputEconomy(services, allowed.has('spawn_subagent'));
  return new Agent({
    // The Planner (planModeSafe) writes its plan file and nothing else, in every mode.
    identity: { name: spec.name, isSubagent: true, allowedTools: allowed, ...(spec.planModeSafe ? { planFilesOnly: true } : {}) },
    workspaceRoot: services.workspaceRoot,
    model: {
      roles,
      systemPrompt: { stable: subagentSystemPrompt(spec, services.vars), dynamic: services.environment },
      promptVars: services.vars,
      maxIterations: spec.maxIterations,
      thinkingLevel: 'off',
    },
    tools: {
      registry: services.registry,
      allowedTools: allowed,
      // Subagents never share the main agent's todo list.
      todos: new TodoStore(),
      subagents: spec.canSpawn ? services.manager?.launcherFor(spec) : undefined,
      // Its commands are the session's processes.
      host: services.host,
      processes: services.processes,
      // Its own read times (it must read before editing), but the same per-file locks.
      files: services.files.sharingLocks(),
      lifecycle: composeLifecycles(hooks.tools, services.lifecycle),
      readableDirs: economy.readableDirs,
    },
    context: {
      shapeResult: economy.shapeResult,
      compaction: new StagedCompactor({ fullCompaction: fullCompactor(services, roles, spec.name).stage }).hook,
    },
    // A subagent's calls count toward the session's cost.
    session: { cost: services.cost, hooks },
  });
}

/** The 99% stage and /compact of one agent: PreCompact hooks first, archives in the session's scratch folder. */
function fullCompactor(services: SessionServices, roles: ModelRoles, agentName: string, ui?: UICallback): FullCompactor {
  return new FullCompactor({
    roles,
    scratchDir: services.scratchDir,
    workspaceRoot: services.workspaceRoot,
    sessionId: services.sessionId,
    agentName,
    cost: services.cost,
    beforeCompaction: services.preCompact,
    ...(ui ? { ui, onWarning: (m: string) => ui.onNotice?.(m, 'warning'), onContext: (info: ContextInfo) => ui.onContext?.(info) } : {}),
  });
}

/**
 * The tool-result economy for one agent: outputs over 8,000 characters go to the session's scratch
 * folder, with a hint that fits the agent's own tools. Every scratch folder stays readable (sessions
 * saved before their ids matched the agent's had another, and run_command names its task logs there too).
 */
function outputEconomy(services: SessionServices, canDelegate: boolean): { shapeResult: ShapeResult; readableDirs: string[] } {
  const scratchRoot = dirname(services.scratchDir);
  return {
    shapeResult: createToolOutputOffloader({ scratchDir: services.scratchDir, canDelegate }),
    readableDirs: [scratchRoot, ...(services.skillDirs ?? [])],
  };
}

/** The session's sandbox; its status is looked up at once, and the user told once when commands run without it. */
function createSessionSandbox(options: MainAgentOptions, session: { projectTrusted: boolean; readableDirs: () => string[]; ui: UICallback; afterFirstAnswer: FirstAnswerGate }): CommandSandbox {
  const sandbox = new CommandSandbox({
    settings: options.sandbox!,
    workspaceRoot: options.workspaceRoot,
    projectTrusted: session.projectTrusted,
    readableDirs: session.readableDirs,
    runtimeOptions: options.host?.ripgrepPath ? { ripgrep: options.host.ripgrepPath } : {},
    ...(options.sandboxHosts ? { rememberHost: options.sandboxHosts } : {}),
    onWarning: (message) => session.ui.onNotice?.(message, 'warning'),
    ...(options.host?.logger ? { log: options.host.logger } : {}),
  });
  session.afterFirstAnswer.run(() => {
    void sandbox.status().then((status) => {
      const notice = sandboxNotice(status);
      if (notice) session.ui.onNotice?.(notice.text, notice.level);
    }, (err: Error) => session.ui.onNotice?.(`The command sandbox could not be checked: ${err.message}`, 'warning'));
  });
  return sandbox;
}

/** The session's MCP servers (none started yet; all of them first when eager). */
async function sessionMcpHub(options: MainAgentOptions, services: SessionServices, ui: UICallback): Promise<McpHub | undefined> {
  if (options.mcp === false) return undefined;
  // The turn's front end asks before a server the project defines first starts.
  const hub = new McpHub({
    registry: services.registry,
    workspaceRoot: options.workspaceRoot,
    home: options.home ?? resolveOpendevHome(),
    scratchDir: services.scratchDir,
    onWarning: (message) => ui.onNotice?.(message, 'warning'),
    ui,
    workspaceTrusted: options.projectTrusted ? unchangedSince(options.workspaceRoot, MCP_CONFIG_SOURCES) : () => false,
    ...(services.processes.sandbox ? { sandbox: services.processes.sandbox } : {}),
    ...(options.host?.logger ? { log: options.host.logger } : {}),
    ...options.mcp,
  });
  if (options.mcp?.eager) await hub.startAll();
  return hub;
}

/** Snapshots and /undo for the session: every call of a tool that can change files (not the todo tools). */
async function sessionUndo(options: MainAgentOptions, sessionId: string, registry: ToolRegistry, ui: UICallback, afterFirstAnswer: FirstAnswerGate): Promise<UndoManager | undefined> {
  if (options.undo === false) return undefined;
  return UndoManager.open({
    workspaceRoot: options.workspaceRoot,
    home: options.home ?? resolveOpendevHome(),
    sessionId,
    changesFiles: (name) => {
      const tool = registry.get(name);
      return tool !== undefined && !tool.readOnly && tool.category !== 'todo';
    },
    onNotice: (message, level) => ui.onNotice?.(message, level),
    settings: { ...envBudget(), ...options.undo },
    // git's warm-up snapshot waits until the first request has left; a step that comes first snapshots by itself.
    holdWarmUp: (start) => afterFirstAnswer.run(start),
    ...(options.host?.logger ? { trail: options.host.logger } : {}),
  });
}

function envBudget(): Partial<UndoSettings> {
  const budgetMs = undoBudgetFromEnv(process.env);
  return budgetMs === undefined ? {} : { budgetMs };
}

/** The project's and the user's hooks (Claude Code format) for the session's agents. */
function sessionHooks(config: LoadedHooksConfig, options: MainAgentOptions, sessionId: string, ui: UICallback, registry: ToolRegistry): SessionHooks {
  return new SessionHooks(config, {
    workspaceRoot: options.workspaceRoot,
    sessionId,
    tools: (name) => registry.get(name),
    onWarning: (message) => ui.onNotice?.(`Hook: ${message}`, 'warning'),
    onSystemMessage: (message) => ui.onNotice?.(message, 'info'),
    ...(options.host?.logger ? { log: options.host.logger } : {}),
  });
}

/** Compaction events as notices; "full compaction needed" repeats every iteration, so it is said once per crossing. */
function compactionNotices(ui: UICallback): (e: CompactionEvent) => void {
  let fullSaid = false;
  return (e) => {
    if (e.stage !== 'full_compaction_needed') {
      ui.onContext?.({ pressure: e.pressure, promptTokens: 0, contextWindow: 0, stage: e.stage, tokensFreed: e.tokensFreed, messagesAffected: e.messagesAffected });
    }
    if (e.stage === 'warn') fullSaid = false;
    if (e.stage === 'full_compaction_needed') {
      if (fullSaid) return;
      fullSaid = true;
    }
    ui.onNotice?.(describeCompaction(e), e.stage === 'warn' || (e.stage === 'full_compaction' && !e.fallbackReason) ? 'info' : 'warning');
  };
}

function describeCompaction(e: CompactionEvent): string {
  const pct = `${Math.round(e.pressure * 100)}%`;
  switch (e.stage) {
    case 'warn':
      return `Context ${pct} full.`;
    case 'full_compaction':
      return `Context ${pct} full: compacted the conversation (${e.messagesAffected} messages summarised${e.fallbackReason ? ` without the compact model, because ${e.fallbackReason}` : ''}), about ${e.tokensFreed.toLocaleString('en-US')} tokens freed.${e.archivePath ? ` The full history is archived at ${e.archivePath}.` : ''}`;
    case 'full_compaction_needed':
      return `Context ${pct} full and nothing more can be compacted; start a new chat if answers degrade.`;
    default:
      return `Context ${pct} full: ${e.stage.replace(/_/g, ' ')} freed about ${e.tokensFreed.toLocaleString('en-US')} tokens (${e.messagesAffected} tool outputs).`;
  }
}

/** A subagent works quietly: only what needs the user (approvals, questions) and notices pass through. */
function subagentUI(parent: UICallback): UICallback {
  return {
    onTextDelta() {},
    onToolStart() {},
    onToolEnd() {},
    onNotice: (text, level) => parent.onNotice?.(text, level),
    onRetry: (info) => parent.onRetry?.(info),
    requestApproval: parent.requestApproval ? (req, signal) => parent.requestApproval!(req, signal) : undefined,
    askUser: parent.askUser ? (q, signal) => parent.askUser!(q, signal) : undefined,
  };
}
