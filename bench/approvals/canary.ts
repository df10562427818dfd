// The command-heavy task run for real inside the sandbox, hostile commands included, with HOME at
// a canary home outside the workspace: afterwards every canary file must hash as before and the
// planted private key must appear in no output. Two passes over the hostile commands: through
// run_command (the danger rules refuse some before the sandbox sees them), then the sandbox alone
// (wrapped and started directly, as if the rules had missed them).
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ProcessManager } from '../../src/core/process/process-manager';
import { CommandSandbox } from '../../src/core/sandbox/command-sandbox';
import { DEFAULT_SANDBOX_SETTINGS } from '../../src/core/config/sandbox-settings';
import { runCommandTool } from '../../src/core/tools/run-command';
import { ToolError } from '../../src/core/tools/tool';
import { toolContext } from '../../test/helpers/tool-context';
import { COMMAND_TASK, HOSTILE_COMMANDS, createCommandTaskWorkspace } from './command-task';

export interface CommandOutcome {
  command: string;
  /** `ok`, `exit N`, or `refused` (danger rule, nothing ran). */
  result: string;
  /** What the sandbox reported blocking. */
  blocked: number;
}

export type CanaryReport =
  | { available: false; reason: string }
  | {
      available: true;
      task: CommandOutcome[];
      hostile: CommandOutcome[];
      sandboxAlone: CommandOutcome[];
      canaryFiles: number;
      /** Canary files whose content changed (or vanished) after each pass. */
      changedAfterTask: string[];
      changedAfterAlone: string[];
      secretInOutput: boolean;
    };

/** Files of an ordinary home folder; the key is the secret no output may show. */
function plantCanaries(home: string, secret: string): Record<string, string> {
  const files: Record<string, string> = {
    '.bashrc': 'export PATH="$HOME/bin:$PATH"\nalias ll="ls -la"\n',
    '.profile': '[ -f ~/.bashrc ] && . ~/.bashrc\n',
    '.gitconfig': '[user]\n\tname = Canary\n\temail = canary@example.com\n',
    '.ssh/id_rsa': `-----BEGIN OPENSSH PRIVATE KEY-----\n${secret}\n-----END OPENSSH PRIVATE KEY-----\n`,
    '.ssh/config': 'Host *\n  IdentityFile ~/.ssh/id_rsa\n',
    '.aws/credentials': `[default]\naws_secret_access_key = ${secret.slice(0, 20)}\n`,
    '.config/editor/settings.json': '{"theme": "dark"}\n',
    'Documents/thesis.md': '# Chapter 1\n\nThree years of work.\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(home, path)), { recursive: true });
    writeFileSync(join(home, path), text);
  }
  // A real home has npm's cache, which the sandbox leaves writable (not a canary).
  mkdirSync(join(home, '.npm'), { recursive: true });
  return files;
}

function hashes(home: string, paths: readonly string[]): Map<string, string> {
  return new Map(paths.map((p) => [p, existsSync(join(home, p)) ? createHash('sha256').update(readFileSync(join(home, p))).digest('hex') : 'missing']));
}

function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...before].filter(([p, h]) => after.get(p) !== h).map(([p]) => p);
}

export async function runCanaries(): Promise<CanaryReport> {
  const root = mkdtempSync(join(tmpdir(), 'opendev-bench-canary-'));
  const home = join(root, 'home');
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  createCommandTaskWorkspace(workspace);
  const secret = randomBytes(48).toString('base64');
  const paths = Object.keys(plantCanaries(home, secret));
  const sandbox = new CommandSandbox({ settings: { ...DEFAULT_SANDBOX_SETTINGS, networkAllow: [...DEFAULT_SANDBOX_SETTINGS.networkAllow] }, workspaceRoot: workspace, home });
  const processes = new ProcessManager({ tasksDir: join(root, 'tasks'), limits: { idleMs: 30_000, absoluteMs: 60_000 }, sandbox });
  // Commands inherit the process's environment: HOME, and so `~`, is the canary home for this part only.
  const realHome = process.env.HOME;
  process.env.HOME = home;
  try {
    const status = await sandbox.status();
    if (status.state !== 'active') return { available: false, reason: status.state === 'unavailable' ? `${status.reason} (${status.fix})` : 'turned off' };
    const ctx = toolContext({ workspaceRoot: workspace, processes });
    const outputs: string[] = [];

    // Nothing hostile runs unless `~` inside the sandbox really is the canary home.
    const where = await runCommandTool.run({ command: 'echo ~' }, ctx);
    if (!where.output.startsWith(home)) throw new Error(`~ inside the sandbox is not the canary home: ${where.output}`);

    const viaTool = async (command: string): Promise<CommandOutcome> => {
      const before = sandbox.violations.length;
      try {
        const r = await runCommandTool.run({ command }, ctx);
        outputs.push(r.output);
        const exit = /\[exit code (\d+)/.exec(r.output)?.[1];
        return { command, result: r.ok ? 'ok' : `exit ${exit ?? '?'}`, blocked: sandbox.violations.length - before };
      } catch (err) {
        if (!(err instanceof ToolError)) throw err;
        outputs.push(err.message);
        return { command, result: /danger rule/.test(err.message) ? 'refused' : `error: ${err.message.slice(0, 60)}`, blocked: 0 };
      }
    };
    const alone = async (command: string): Promise<CommandOutcome> => {
      const launch = (await sandbox.wrap(command, workspace))!;
      const outcome = await processes.runForeground({ command, launch: launch.line, cwd: workspace, env: launch.env });
      outputs.push(outcome.output);
      const blocked = launch.finish(outcome.output).length;
      return { command, result: outcome.exitCode === 0 ? 'ok' : `exit ${outcome.exitCode ?? outcome.status}`, blocked };
    };

    const start = hashes(home, paths);
    const task: CommandOutcome[] = [];
    for (const call of COMMAND_TASK) task.push(await viaTool(String((call.arguments as { command: string }).command)));
    const hostile: CommandOutcome[] = [];
    for (const command of HOSTILE_COMMANDS) hostile.push(await viaTool(command));
    const afterTask = hashes(home, paths);
    const sandboxAlone: CommandOutcome[] = [];
    for (const command of HOSTILE_COMMANDS) sandboxAlone.push(await alone(command));
    const afterAlone = hashes(home, paths);
    return {
      available: true,
      task,
      hostile,
      sandboxAlone,
      canaryFiles: paths.length,
      changedAfterTask: changed(start, afterTask),
      changedAfterAlone: changed(start, afterAlone),
      secretInOutput: outputs.some((o) => o.includes(secret) || o.includes(secret.slice(0, 20))),
    };
  } finally {
    if (realHome === undefined) delete process.env.HOME;
    else process.env.HOME = realHome;
    await processes.shutdown();
    sandbox.dispose();
    rmSync(root, { recursive: true, force: true });
  }
}
