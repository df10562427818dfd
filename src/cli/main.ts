import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Agent } from '../core/agent/agent';
import { createMainAgent } from '../core/agent/create-agent';
import { createStreamTerminalPort } from '../core/process/stream-terminal';
import { createSlashCommands } from '../core/commands/slash-commands';
import { resolveOpendevHome } from '../core/config/opendev-home';
import { playbookLearningFromEnv } from '../core/config/playbook-learning';
import { PROVIDER_ENV, PROVIDER_LABELS, type ProviderSettings } from '../core/config/provider-settings';
import type { RoleSettings } from '../core/llm/model-roles';
import { MissingApiKeyError } from '../core/llm/create-provider';
import { SessionRecorder } from '../core/session/session-recorder';
import { SessionStore, type LoadedSession } from '../core/session/session-store';
import { parseCliArgs, UsageError, type CliOptions } from './args';
import { HELP } from './help';
import { EXIT, runPrintMode } from './print-mode';
import { runRepl } from './repl';
import { resolveResume } from './resume';
import { roleSettingsFromEnv, settingsFromEnv, thinkingLevel } from './settings-from-env';
import { describeRoles } from '../core/config/role-overrides';

declare const OPENDEV_VERSION: string | undefined;

interface Setup {
  options: CliOptions;
  workspaceRoot: string;
  settings: ProviderSettings;
  roles: RoleSettings;
  agent: Agent;
  recorder: SessionRecorder;
  resumed: LoadedSession | undefined;
}

const stderr = (text: string) => void process.stderr.write(text);
const warn = (text: string) => stderr(`opendev: ${text}\n`);

/** Exit codes: 0 done, 1 the agent or the provider failed, 2 bad usage or configuration, 130 interrupted. */
async function main(argv: string[]): Promise<number> {
  let setup: Setup | number;
  try {
    setup = await prepare(argv, process.env);
  } catch (err) {
    return reportSetupError(err);
  }
  if (typeof setup === 'number') return setup;
  const { options, agent, recorder, roles } = setup;
  const commands = createSlashCommands();
  const models = describeRoles(roles);

  if (options.prompt === undefined) {
    return runRepl({ agent, recorder, commands, models, greeting: greeting(setup) });
  }

  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts === 1) {
      controller.abort();
      agent.interrupt();
      return;
    }
    warn('interrupted again; exiting now.');
    process.exit(EXIT.interrupted);
  };
  process.on('SIGINT', onSigint);
  try {
    const code = await runPrintMode({
      agent,
      options: { ...options, prompt: options.prompt },
      recorder,
      commands,
      models,
      stdout: (text) => void process.stdout.write(text),
      stderr,
      signal: controller.signal,
    });
    return interrupts > 0 && code === EXIT.ok ? EXIT.interrupted : code;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

async function prepare(argv: string[], env: NodeJS.ProcessEnv): Promise<Setup | number> {
  const options = parseCliArgs(argv);
  if (options.help) return print(HELP);
  if (options.version) return print(version());
  const workspaceRoot = resolve(options.workingDir ?? process.cwd());
  if (!existsSync(workspaceRoot) || !statSync(workspaceRoot).isDirectory()) {
    throw new UsageError(`--working-dir ${workspaceRoot} is not a folder`);
  }
  const interactive = options.prompt === undefined;
  const thinking = thinkingLevel(options, env, interactive);
  const settings = settingsFromEnv(options, env);
  const roles = roleSettingsFromEnv(settings, env);
  const store = new SessionStore({ home: resolveOpendevHome(env), onProblem: (p) => warn(`skipped damaged session data: ${p}`) });
  const resumed = await resolveResume(store, options, workspaceRoot, warn);
  const agent = await createMainAgent({
    roles,
    workspaceRoot,
    thinkingLevel: thinking,
    approvalLevel: options.approval,
    playbookLearning: playbookLearningFromEnv(env) ?? true,
    // Command output streams live: to stdout in the interactive session, to stderr with -p --verbose
    // (stdout stays the answer alone). Search finds `rg` on PATH by itself.
    host: interactive || options.verbose ? { terminal: createStreamTerminalPort((t) => (interactive ? process.stdout : process.stderr).write(t)) } : undefined,
    ...(options.maxIterations !== undefined ? { maxIterations: options.maxIterations } : {}),
  });
  const cost = resumed?.record.meta.cost;
  if (resumed) agent.restore(resumed.messages, cost ? { ...cost, usd: cost.usd } : undefined);
  const recorder = new SessionRecorder(store, workspaceRoot, resumed?.record);
  return { options, workspaceRoot, settings, roles, agent, recorder, resumed };
}

function greeting({ settings, workspaceRoot, resumed, agent }: Setup): string {
  const lines = [
    `OpenDev ${version()} · ${settings.model} (${settings.provider}) · ${workspaceRoot}`,
    `Thinking ${agent.thinkingLevel}. Type a task, or /help for commands. Ctrl+C stops the agent; Ctrl+C twice or /exit quits.`,
  ];
  if (resumed) {
    const m = resumed.record.meta;
    lines.push(`Resumed session ${m.id}${m.title ? ` "${m.title}"` : ''} (${resumed.messages.length} messages).`);
  }
  return lines.join('\n');
}

function reportSetupError(err: unknown): number {
  if (err instanceof MissingApiKeyError) {
    const vars = PROVIDER_ENV[err.provider];
    stderr(
      `opendev: no API key for ${PROVIDER_LABELS[err.provider]}. Set ${vars.apiKey}` +
        ` (and ${vars.baseUrl} for a different endpoint), or choose another provider with --provider.\n`,
    );
    return EXIT.usage;
  }
  if (err instanceof UsageError) {
    stderr(`opendev: ${err.message}\nRun "opendev --help" for usage.\n`);
    return EXIT.usage;
  }
  stderr(`opendev: ${(err as Error).message ?? String(err)}\n`);
  return EXIT.failure;
}

function print(text: string): number {
  process.stdout.write(`${text}\n`);
  return EXIT.ok;
}

function version(): string {
  return typeof OPENDEV_VERSION === 'string' ? OPENDEV_VERSION : 'dev';
}

/** Sets the exit code and lets stdout drain; if something (a stray socket, a timer) keeps the process alive, exits anyway. */
function finish(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), 2000).unref();
}

main(process.argv.slice(2)).then(finish, (err: unknown) => {
  stderr(`opendev: unexpected error: ${(err as Error).stack ?? String(err)}\n`);
  finish(EXIT.failure);
});
