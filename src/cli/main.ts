import { stopSandboxRuntime } from '../core/sandbox/sandbox-runtime';
import { rememberSandboxHost } from '../core/sandbox/remember-host';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Agent } from '../core/agent/agent';
import { createMainAgent } from '../core/agent/create-agent';
import type { MainAgentOptions } from '../core/agent/main-agent-options';
import { AgentSession } from '../core/session/agent-session';
import { createStreamTerminalPort } from '../core/process/stream-terminal';
import { configureSecretEnv, holdSecretEnv } from '../core/process/child-env';
import { configureSecretLocations } from '../core/files/secret-locations';
import { createSlashCommands } from '../core/commands/slash-commands';
import { opendevPaths, resolveOpendevHome } from '../core/config/opendev-home';
import { tightenOpendevHome } from '../core/config/private-home';
import { PROVIDER_ENV, PROVIDER_LABELS, type ProviderSettings } from '../core/config/provider-settings';
import type { RoleSettings } from '../core/config/model-role-settings';
import { MissingApiKeyError, MissingBaseUrlError } from '../core/llm/create-provider';
import { SessionStore, type LoadedSession } from '../core/session/session-store';
import { parseCliArgs, UsageError, type CliOptions } from './args';
import { HELP } from './help';
import { systemOpener } from './system-opener';
import { runMcpCli } from './mcp-cli';
import { runModelsCli } from './models-cli';
import { settleFolderTrust } from './folder-trust';
import { runTrustCli } from './trust-cli';
import { EXIT, runPrintMode } from './print-mode';
import { runRepl } from './repl';
import { resolveResume } from './resume';
import { readCliSettingsFiles, resolveCliSettings } from './settings-from-env';
import type { SettingsReport } from '../core/config/settings-report';
import { describeRoles } from '../core/config/role-overrides';
import { cliVersion } from './version';
import { markdownAnsi } from '../terminal-ui/markdown-lines';
import { debugFileLogger } from './debug-file';

interface Setup {
  options: CliOptions;
  workspaceRoot: string;
  settings: ProviderSettings;
  roles: RoleSettings;
  /** The run's conversation: its agent (built, resumed, renewed after /clear) and its saving. */
  session: AgentSession<never>;
  /**
   * The agent the run starts with, built (or resumed) on the first call; throws what stops it (no
   * key, no server address). Not called for a command that needs no model (`-p /help`).
   */
  agent: () => Promise<Agent>;
  resumed: LoadedSession | undefined;
  /** The effective settings and their sources, for /config. */
  settingsReport: SettingsReport;
}

const stderr = (text: string) => void process.stderr.write(text);
const warn = (text: string) => stderr(`opendev: ${text}\n`);

/** Exit codes: 0 done, 1 the agent or the provider failed, 2 bad usage or configuration, 130 interrupted. */
async function main(argv: string[]): Promise<number> {
  // Keys leave process.env (and /proc/self/environ) before anything runs, so no child can read
  // them; `env` is the environment as it was, keys included, for the code that reads them.
  const env = holdSecretEnv();
  // `opendev trust …` and `opendev mcp …` manage what is trusted and configured: no model, no key, no session.
  if (argv[0] === 'trust' || argv[0] === 'untrust') {
    await privateHome(env);
    return runTrustCli(argv, { env, cwd: process.cwd(), input: process.stdin, stdout: (t) => void process.stdout.write(t), stderr });
  }
  if (argv[0] === 'models') {
    await privateHome(env);
    return runModelsCli(argv.slice(1), { env, cwd: process.cwd(), stdout: (t) => void process.stdout.write(t), stderr });
  }
  if (argv[0] === 'mcp') {
    await privateHome(env);
    return runMcpCli(argv.slice(1), { env, cwd: process.cwd(), stdout: (t) => void process.stdout.write(t), stderr });
  }
  let setup: Setup | number;
  try {
    setup = await prepare(argv, env);
  } catch (err) {
    return reportSetupError(err);
  }
  if (typeof setup === 'number') return setup;
  const { options, session, roles, settingsReport } = setup;
  const commands = createSlashCommands({ settings: () => settingsReport });
  const models = describeRoles(roles);

  if (options.prompt === undefined) {
    // Without a key (or a server address) the session still starts: /help, /models, /config… need no
    // model. A task says again what is missing.
    const firstAgent = async (): Promise<Agent | undefined> => {
      try {
        return await setup.agent();
      } catch (err) {
        const problem = setupProblem(err);
        if (problem === undefined) throw err;
        warn(problem);
        return undefined;
      }
    };
    let agent: Agent | undefined;
    try {
      agent = await firstAgent();
    } catch (err) {
      return reportSetupError(err);
    }
    // The REPL ends the session with the run (after /clear, another agent with a session of its own).
    return runRepl({ session, commands, models, agent, firstAgent, greeting: greeting(setup, agent) });
  }

  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts === 1) {
      controller.abort();
      session.agent?.interrupt();
      return;
    }
    warn('interrupted again; exiting now.');
    process.exit(EXIT.interrupted);
  };
  process.on('SIGINT', onSigint);
  try {
    const code = await endingSession(session, runPrintMode({
      agent: setup.agent,
      options: { ...options, prompt: options.prompt },
      recorder: () => session.recorder!,
      commands,
      models,
      stdout: (text) => void process.stdout.write(text),
      stderr,
      // A person reading a terminal gets the markdown drawn; anything else gets it as written.
      ...(process.stdout.isTTY && !env.NO_COLOR ? { formatAnswer: markdownAnsi } : {}),
      signal: controller.signal,
    }));
    return interrupts > 0 && code === EXIT.ok ? EXIT.interrupted : code;
  } catch (err) {
    // The agent could not be built (no key, no server address): said as the usage problem it is.
    return reportSetupError(err);
  } finally {
    process.off('SIGINT', onSigint);
  }
}

async function prepare(argv: string[], env: NodeJS.ProcessEnv): Promise<Setup | number> {
  const options = parseCliArgs(argv);
  if (options.help) return print(HELP);
  if (options.version) return print(cliVersion());
  await privateHome(env);
  // Opened before the folder's trust is settled: the trust decision, the agent and its requests are logged.
  const debug = options.debugFile === undefined ? undefined : debugFileLogger(options.debugFile, env);
  if (debug) process.once('exit', debug.close);
  const workspaceRoot = resolve(options.workingDir ?? process.cwd());
  if (!existsSync(workspaceRoot) || !statSync(workspaceRoot).isDirectory()) {
    throw new UsageError(`--working-dir ${workspaceRoot} is not a folder`);
  }
  const interactive = options.prompt === undefined;
  // defaults < environment < OPENDEV_HOME/settings.json < .opendev/settings.json < flags.
  const files = readCliSettingsFiles(env, workspaceRoot);
  // The folder's own configuration acts only once trusted: asked here, before the first turn (never with -p).
  const trust = await settleFolderTrust(
    { home: resolveOpendevHome(env), workspaceRoot },
    (projectTrusted, endpointConfirmed) => resolveCliSettings({ options, argv, env, interactive, files, projectTrusted, endpointConfirmed }),
    interactive ? { input: process.stdin, output: (t) => void process.stdout.write(t), warn } : undefined,
  );
  const resolved = trust.resolved;
  debug?.logger.info('trust: folder configuration', { folder: workspaceRoot, projectTrusted: trust.projectTrusted, asked: interactive });
  for (const line of resolved.warnings) warn(line);
  configureSecretEnv({ extra: resolved.secretEnvVars });
  configureSecretLocations({ secretPaths: resolved.secretPaths });
  const { settings, roles, thinking } = resolved;
  const store = new SessionStore({ home: resolveOpendevHome(env), onProblem: (p) => warn(`sessions: ${p}`) });
  const resumed = await resolveResume(store, options, workspaceRoot, warn);
  const agentOptions: MainAgentOptions = {
    roles,
    workspaceRoot,
    thinkingLevel: thinking,
    thinkingCadence: resolved.thinkingCadence,
    approvalLevel: resolved.approval,
    playbookLearning: resolved.playbookLearning,
    playbookReflectEvery: resolved.playbookReflectEvery,
    episodicSummaryEvery: resolved.episodicSummaryEvery,
    // Command output streams live: to stdout in the interactive session, to stderr with -p --verbose
    // (stdout stays the answer alone). Search finds `rg` on PATH by itself. open_browser uses the system opener.
    host: {
      openExternal: systemOpener(),
      ...(debug ? { logger: debug.logger } : {}),
      ...(interactive || options.verbose ? { terminal: createStreamTerminalPort((t) => (interactive ? process.stdout : process.stderr).write(t)) } : {}),
    },
    web: resolved.web,
    ...(resolved.maxIterations !== undefined ? { maxIterations: resolved.maxIterations } : {}),
    // -p: nobody can allow a server the project defines; only those trusted before (`opendev mcp trust`) start.
    ...(interactive ? {} : { mcp: { unattended: true } }),
    projectTrusted: trust.projectTrusted,
    sandbox: resolved.sandbox,
    // Commands run in the user's $SHELL with the environment their profile sets up (read once, from the
    // home folder), unless OPENDEV_SHELL_PROFILE=0.
    shell: { ...(env.SHELL ? { userShell: env.SHELL } : {}), ...(env.OPENDEV_SHELL_PROFILE === '0' ? { readProfile: false } : {}) },
    // "Always allow" for a host the sandbox blocked: saved in OPENDEV_HOME/settings.json.
    sandboxHosts: (host) => rememberSandboxHost(opendevPaths(resolveOpendevHome(env)).settingsFile, host),
  };
  // A resumed conversation keeps its id: its undo history, scratch folder and hooks' session_id go on.
  // What the untrusted folder was not allowed to do is told once, at the first turn (-p: stderr and stream-json).
  let notices = trust.notices.map((text) => ({ text, level: 'warning' as const }));
  const session = new AgentSession<never>({
    // A build that fails throws (no key, bad settings): the run reports it and exits.
    build: async ({ sessionId }) => {
      const agent = await createMainAgent({ ...agentOptions, notices, ...(sessionId ? { sessionId } : {}) });
      notices = [];
      return { agent };
    },
    saving: { store, workingDir: workspaceRoot, titles: () => resolved.sessionTitles, onProblem: warn },
  });
  let first: Promise<Agent> | undefined;
  const agent = () =>
    (first ??= (async () => {
      const ready = resumed ? await session.resume(resumed) : await session.ready();
      if (!('agent' in ready)) throw new Error('the agent could not be built');
      return ready.agent;
    })());
  // -p's headless UI answers approvals by this level, so it must be the layered one.
  return { options: { ...options, approval: resolved.approval }, workspaceRoot, settings, roles, session, agent, resumed, settingsReport: resolved.report };
}

/** Before anything is written there: an older install's OPENDEV_HOME is made private, with a note (one stat when it already is). */
async function privateHome(env: NodeJS.ProcessEnv): Promise<void> {
  const note = await tightenOpendevHome(resolveOpendevHome(env));
  if (note) warn(note);
}

function greeting({ settings, workspaceRoot, resumed }: Setup, agent: Agent | undefined): string {
  const lines = [
    `OpenDev ${cliVersion()} · ${settings.model} (${settings.provider}) · ${workspaceRoot}`,
    agent
      ? `Thinking ${agent.thinkingLevel}. Type a task, or /help for commands. Shift+Tab switches plan mode; Ctrl+C stops the agent; Ctrl+C twice or /exit quits.`
      : 'No model yet (see above): tasks wait for it; /help, /models, /config and /sessions work now. /exit quits.',
  ];
  if (resumed) {
    const m = resumed.record.meta;
    lines.push(`Resumed session ${m.id}${m.title ? ` "${m.title}"` : ''} (${resumed.messages.length} messages).`);
  }
  return lines.join('\n');
}

/** The session ends with the run: SessionEnd hooks and the agent's services shut down, not awaited (finish() bounds the exit). */
async function endingSession<T>(session: AgentSession<never>, run: Promise<T>): Promise<T> {
  try {
    return await run;
  } finally {
    void session.dispose();
  }
}

/** What keeps the agent from being built that the user fixes in the configuration (exit 2); undefined for anything else. */
function setupProblem(err: unknown): string | undefined {
  if (err instanceof MissingApiKeyError) {
    const vars = PROVIDER_ENV[err.provider];
    return `no API key for ${PROVIDER_LABELS[err.provider]}. Set ${vars.apiKey} (and ${vars.baseUrl} for a different endpoint), or choose another provider with --provider.`;
  }
  if (err instanceof MissingBaseUrlError) {
    // Without an address the SDK would send the key to api.openai.com: never silently.
    const variable = PROVIDER_ENV[err.provider].baseUrl;
    const example = err.provider === 'azure-openai' ? "https://<resource>.openai.azure.com, your resource's endpoint" : 'http://localhost:11434/v1 for Ollama';
    return (
      `the ${err.provider} provider needs the server's address. Set ${variable} (for example ${example})` +
      ` or "baseUrl" in settings.json, or choose another provider with --provider.`
    );
  }
  return undefined;
}

function reportSetupError(err: unknown): number {
  const problem = setupProblem(err);
  if (problem !== undefined) {
    stderr(`opendev: ${problem}\n`);
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

/** Sets the exit code and lets stdout drain; if something (a stray socket, a timer) keeps the process alive, exits anyway. */
function finish(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), 2000).unref();
}

main(process.argv.slice(2)).then(async (code) => {
  // The sandbox's proxy and bridges would otherwise hold the process open.
  await stopSandboxRuntime();
  finish(code);
}, (err: unknown) => {
  stderr(`opendev: unexpected error: ${(err as Error).stack ?? String(err)}\n`);
  finish(EXIT.failure);
});
