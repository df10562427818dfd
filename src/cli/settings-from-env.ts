import type { ThinkingCadence } from '../core/config/thinking-cadence';
import type { ThinkingLevel } from '../core/config/thinking-level';
import type { SessionTitles } from '../core/config/session-titles-setting';
import { describeFileLayer, projectSettingsFile, resolveLayeredSettings, settingsFileLayer, type ProjectEndpoint, type SourceLayer } from '../core/config/layered-settings';
import { opendevPaths, resolveOpendevHome } from '../core/config/opendev-home';
import { HostOnlyProviderError } from '../core/llm/create-provider';
import { PROVIDER_ENV, ProviderSettingsSchema, type ProviderKind, type ProviderSettings } from '../core/config/provider-settings';
import type { IgnoredProjectSetting } from '../core/config/untrusted-project';
import { buildRoleSettings, OPTIONAL_ROLES, type OptionalRole, type RoleOverride } from '../core/config/role-overrides';
import { formatSettingsProblem } from '../core/config/settings-problem';
import { settingsReport, type SettingsReport } from '../core/config/settings-report';
import type { SettingKey, SettingsLayer } from '../core/config/settings-values';
import type { RoleSettings } from '../core/config/model-role-settings';
import type { ApprovalLevel } from '../core/config/approval-level';
import { sandboxSettingsOf, type SandboxSettings } from '../core/config/sandbox-settings';
import type { WebSettings } from '../core/config/web-settings';
import { cloudPart } from '../core/config/cloud-credentials';
import type { CliOptions } from './args';
import { UsageError } from './args';

/** The user's and the project's settings.json (either may be missing, broken, or partly wrong: see `warnings`). */
export interface CliSettingsFiles {
  user: SourceLayer;
  project?: SourceLayer;
}

export function readCliSettingsFiles(env: NodeJS.ProcessEnv, workspaceRoot: string): CliSettingsFiles {
  return {
    user: settingsFileLayer('user', opendevPaths(resolveOpendevHome(env)).settingsFile),
    project: settingsFileLayer('project', projectSettingsFile(workspaceRoot)),
  };
}

export interface CliSettings {
  settings: ProviderSettings;
  roles: RoleSettings;
  thinking: ThinkingLevel;
  thinkingCadence: ThinkingCadence;
  approval: ApprovalLevel;
  playbookLearning: boolean;
  playbookReflectEvery: number;
  episodicSummaryEvery: number;
  sessionTitles: SessionTitles;
  maxIterations?: number;
  /** `web_search_provider` and `chromium_path`, for the web tools. */
  web: WebSettings;
  /** The user's `secretEnvVars` (names or globs no child process may see, on top of the built-in list); [] when unset. */
  secretEnvVars: string[];
  /** The user's `secretPaths` (more locations no tool reads, on top of the built-in list); [] when unset. */
  secretPaths: string[];
  /** `sandbox.*` (OPENDEV_SANDBOX sets `enabled`), the defaults filling what no layer sets. */
  sandbox: SandboxSettings;
  /** Problems in the settings files, one line each, for stderr (the files are skipped or partly used, never fatal). */
  warnings: string[];
  /** For /config. */
  report: SettingsReport;
  /** What the untrusted project's settings were not allowed to do (empty once trusted). */
  untrusted: IgnoredProjectSetting[];
  /** Endpoints the trusted project chose that wait for the user's yes (not used meanwhile). */
  unconfirmedEndpoints: ProjectEndpoint[];
}

export interface CliSettingsInput {
  options: CliOptions;
  env: NodeJS.ProcessEnv;
  /** -p thinks `off` by default (fast, cheap, scriptable), the interactive session `medium`. */
  interactive: boolean;
  files?: CliSettingsFiles;
  /** The raw arguments: `--approval` has a default, so only argv tells a typed `--approval semi-auto` from none. */
  argv?: readonly string[];
  /** The user trusts the folder's configuration (core/trust); default not. */
  projectTrusted?: boolean;
  /** Whether the user confirmed sending a provider's key to an endpoint the project chose. */
  endpointConfirmed?: (provider: ProviderKind, baseUrl: string) => boolean;
}

const NO_FILES: CliSettingsFiles = { user: { passthrough: {}, problems: [] } };
const API_KEY_HINT = 'Set it in the environment instead (OPENAI_API_KEY, ANTHROPIC_API_KEY, AZURE_OPENAI_API_KEY, GEMINI_API_KEY, OPENROUTER_API_KEY…).';

/**
 * Every setting of a CLI run: defaults < environment < OPENDEV_HOME/settings.json <
 * <project>/.opendev/settings.json < flags. API keys come from the environment only. A bad
 * environment variable is a usage error (exit 2, as always); a bad settings file is a warning.
 */
export function resolveCliSettings(input: CliSettingsInput): CliSettings {
  const { options, env } = input;
  const files = input.files ?? NO_FILES;
  const layered = resolveLayeredSettings({
    env,
    user: files.user,
    project: files.project,
    flags: flagsLayer(options, input.argv),
    defaults: { thinkingLevel: input.interactive ? 'medium' : 'off' },
    projectTrusted: input.projectTrusted ?? false,
    ...(input.endpointConfirmed ? { endpointConfirmed: input.endpointConfirmed } : {}),
  });
  if (layered.environmentProblems.length > 0) throw new UsageError(layered.environmentProblems.map((p) => p.message).join('; '));
  const v = layered.effective.values;
  // VS Code's Language Model API exists only inside VS Code: say so before anything else is asked.
  if (v.provider === 'vscode-lm') throw new UsageError(new HostOnlyProviderError(v.provider).message);
  const keyVar = PROVIDER_ENV[v.provider].apiKey;
  const cloud = cloudPart(v.provider, v, env);
  const parsed = ProviderSettingsSchema.safeParse({
    provider: v.provider,
    model: v.model,
    baseUrl: v.baseUrl,
    apiKey: env[keyVar] || undefined,
    ...(v.contextWindow !== undefined ? { contextWindow: v.contextWindow } : {}),
    ...(v.embeddingModel !== undefined ? { embeddingModel: v.embeddingModel } : {}),
    ...(v['openai.api'] !== undefined ? { openaiApi: v['openai.api'] } : {}),
    ...(cloud ? { cloud } : {}),
  });
  // Every value was validated in its layer; this only guards the combination.
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`).join('; '));
  const overrides: Partial<Record<OptionalRole, RoleOverride>> = {};
  for (const role of OPTIONAL_ROLES) if (v[`roles.${role}`]) overrides[role] = v[`roles.${role}`];
  const warnings = layered.problems.map((p) => `settings: ${formatSettingsProblem(p, { apiKeyHint: API_KEY_HINT })}`);
  const userFile = opendevPaths(resolveOpendevHome(env)).settingsFile;
  return {
    settings: parsed.data,
    roles: buildRoleSettings(parsed.data, overrides, (p) => env[PROVIDER_ENV[p].apiKey] || undefined),
    thinking: v.thinkingLevel,
    thinkingCadence: v.thinkingCadence,
    approval: v.approvalLevel,
    playbookLearning: v['playbook.learn'],
    playbookReflectEvery: v['playbook.reflectEvery'],
    episodicSummaryEvery: v['memory.summaryEvery'],
    sessionTitles: v.sessionTitles,
    ...(v.maxIterations !== undefined ? { maxIterations: v.maxIterations } : {}),
    web: { ...(v.web_search_provider ? { searchProvider: v.web_search_provider } : {}), ...(v.chromium_path ? { chromiumPath: v.chromium_path } : {}) },
    secretEnvVars: v.secretEnvVars ?? [],
    secretPaths: v.secretPaths ?? [],
    sandbox: sandboxSettingsOf(v),
    warnings,
    report: settingsReport(layered.effective, {
      order: [
        'defaults',
        'environment',
        describeFileLayer('user', files.user, files.user.file ?? userFile),
        describeFileLayer('project', files.project, files.project?.file ?? '.opendev/settings.json'),
        'command-line flags',
      ],
      apiKey: { set: parsed.data.apiKey !== undefined, source: `environment (${keyVar})` },
      problems: warnings.map((w) => w.replace(/^settings: /, '')),
    }),
    untrusted: layered.untrusted,
    unconfirmedEndpoints: layered.unconfirmedEndpoints,
  };
}

/** The flags that set a setting (`--provider`, `--model`, `--thinking`, `--approval`, `--max-iterations`). */
function flagsLayer(options: CliOptions, argv?: readonly string[]): SettingsLayer {
  const layer: SettingsLayer = { kind: 'flags', label: 'command-line flags', values: {}, origins: {} };
  const set = <K extends SettingKey>(key: K, value: SettingsLayer['values'][K] | undefined, flag: string) => {
    if (value === undefined) return;
    layer.values[key] = value;
    layer.origins![key] = flag;
  };
  set('provider', options.provider, '--provider');
  set('model', options.model, '--model');
  set('openai.api', options.openaiApi, '--openai-api');
  set('thinkingLevel', options.thinking, '--thinking');
  const approvalTyped = argv ? argv.some((a) => a === '--approval' || a.startsWith('--approval=')) : options.approval !== 'semi-auto';
  if (approvalTyped) set('approvalLevel', options.approval, '--approval');
  set('maxIterations', options.maxIterations, '--max-iterations');
  set('azure.apiVersion', options.azureApiVersion, '--azure-api-version');
  set('azure.deployment', options.azureDeployment, '--azure-deployment');
  set('bedrock.region', options.awsRegion, '--aws-region');
  set('vertex.region', options.vertexRegion, '--vertex-region');
  set('vertex.projectId', options.vertexProject, '--vertex-project');
  return layer;
}

/** The CLI's provider settings: flags over settings files over OPENDEV_* variables over defaults; keys only from the environment. */
export function settingsFromEnv(options: CliOptions, env: NodeJS.ProcessEnv, files?: CliSettingsFiles): ProviderSettings {
  return resolveCliSettings({ options, env, interactive: false, files }).settings;
}

/**
 * The thinking level: --thinking, else the settings files, else OPENDEV_THINKING, else `off` for -p
 * (fast, cheap, scriptable) and `medium` for the interactive session.
 */
export function thinkingLevel(options: CliOptions, env: NodeJS.ProcessEnv, interactive: boolean, files?: CliSettingsFiles): ThinkingLevel {
  return resolveCliSettings({ options, env, interactive, files }).thinking;
}
