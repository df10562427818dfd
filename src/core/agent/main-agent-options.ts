import type { ApprovalLevel } from '../config/approval-level';
import type { RoleSettings } from '../config/model-role-settings';
import type { SandboxSettings } from '../config/sandbox-settings';
import type { ThinkingCadence } from '../config/thinking-cadence';
import type { ThinkingLevel } from '../config/thinking-level';
import type { WebSettings } from '../config/web-settings';
import type { HostPorts } from '../host';
import type { CapabilityCatalog } from '../llm/capabilities/catalog';
import type { ProviderFactory } from '../llm/model-roles';
import type { ModelCallObserver } from '../llm/observed-provider';
import type { McpHubOptions } from '../mcp/mcp-hub';
import type { ProcessManagerOptions } from '../process/process-manager';
import type { ShellSettings } from '../process/session-shell';
import type { UndoSettings } from '../undo/undo-manager';

/** What a host chooses for a session's main agent (createMainAgent); the session's service builders read it too. */
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
