import { platform } from 'node:os';
import { dirname, join } from 'node:path';
import { opendevPaths, resolveOpendevHome } from '../config/opendev-home';
import { newSessionId } from '../session-id';
import { composeLifecycles } from '../hooks/tool-hooks';
import { loadHooksConfig } from '../hooks/config';
import { readProjectTrust } from '../trust/project-trust';
import { ServerModelDirectory } from '../llm/server-models/server-model-directory';
import { CapabilityCatalog } from '../llm/capabilities/catalog';
import { CostTracker } from '../llm/cost-tracker';
import { ModelRoles } from '../llm/model-roles';
import { FileTimeTracker } from '../tools/file-time-tracker';
import { StagedCompactor } from '../context/compaction/staged-compactor';
import { preCompactHook } from '../context/compaction/pre-compact-hook';
import { createAgentMemory } from '../memory/create-agent-memory';
import { buildMainSystemPrompt } from '../context/prompt/main-system-prompt';
import { mainPromptContext } from '../context/prompt/prompt-context';
import { PromptVariables } from '../context/prompt/prompt-variables';
import { sessionApprovalGate } from '../safety/approval-gate';
import { ProcessManager } from '../process/process-manager';
import { SessionShell } from '../process/session-shell';
import { loadCustomAgents } from '../subagents/custom-agents';
import { BUILTIN_SUBAGENTS } from '../subagents/builtin-agents';
import { mergeSpecs } from '../subagents/specs';
import { SubagentManager } from '../subagents/subagent-manager';
import { createInvokeSkillTool } from '../skills/invoke-skill-tool';
import { loadSkills } from '../skills/skill-loader';
import { loadTemplate, renderTemplate } from '../templates';
import { TodoStore } from '../todos/todo-store';
import { createBuiltinRegistry } from '../tools/builtin-tools';
import { WebSession } from '../web/web-session';
import { DEFAULT_THINKING_CADENCE } from '../config/thinking-cadence';
import { DEFAULT_REFLECT_EVERY, DEFAULT_SUMMARY_EVERY } from '../config/memory-cadence';
import { withMcpServers } from '../mcp/mcp-prompt';
import { Agent } from './agent';
import { FirstAnswerGate } from './first-answer-gate';
import { createUiRelay } from './ui-relay';
import type { MainAgentOptions } from './main-agent-options';
import type { SessionSetup } from './session-setup';
import type { SessionServices } from './session-services';
import { createSessionSandbox } from './create-session-sandbox';
import { createSessionHooks } from './create-session-hooks';
import { createSessionUndo } from './create-session-undo';
import { createSessionMcpHub } from './create-session-mcp-hub';
import { subagentRunner } from './subagent-runner';
import { sectionText } from '../template-text';
import { compactionNotices, fullCompactor } from './session-compaction';
import { outputEconomy } from './output-economy';

const DEFAULT_MAX_ITERATIONS = 50;

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
  log?.info('session: agent built', { sessionId, workspace: options.workspaceRoot, projectTrusted, approval: approvalLevel, provider: options.roles.action.provider, model: options.roles.action.model });
  const scratchDir = join(opendevPaths(home).scratchDir, sessionId);
  const setup: SessionSetup = { options, sessionId, home, projectTrusted, registry, ui: relay.ui, afterFirstAnswer };
  // Commands run in the OS sandbox (looked up once the first request has left, or by the first command), told once how they run.
  const sandbox = options.sandbox && createSessionSandbox(setup, options.sandbox, () => [dirname(scratchDir), ...(services.skillDirs ?? [])]);
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
    hooks: createSessionHooks(setup, hooksConfig),
  };
  // Undo, after the approval step (only calls that really run are snapshotted); subagents' writes
  // count toward the main agent's step that spawned them.
  const undo = await createSessionUndo(setup);
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
  const mcp = await createSessionMcpHub(setup, services);
  const specs = mergeSpecs(BUILTIN_SUBAGENTS, custom.specs);
  // An MCP tool a custom agent names may not be registered yet: it counts as writing until known.
  const isWriteTool = (tool: string) => registry.get(tool)?.readOnly === false || (registry.get(tool) === undefined && tool.startsWith('mcp__'));
  const manager = new SubagentManager({ specs, run: subagentRunner(services, roles, relay.ui), ui: relay.ui, isWriteTool });
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
              onRepair: (repairs) => relay.ui.onNotice?.(sectionText('agent/texts.md', 'conversation_repaired', { REPAIRS: repairs.join('; ') }), 'warning'),
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
