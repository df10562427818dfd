import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { createMainAgent } from '../core/agent/create-agent';
import type { Agent } from '../core/agent/agent';
import type { TurnResult } from '../core/agent/turn-result';
import { PROVIDER_ENV, PROVIDER_LABELS } from '../core/config/provider-settings';
import { MissingApiKeyError } from '../core/llm/create-provider';
import { StreamRenderer } from '../terminal-ui/stream-renderer';
import { parseCliArgs, UsageError, type CliOptions } from './args';
import { HELP } from './help';
import { runRepl } from './repl';
import { settingsFromEnv } from './settings-from-env';

declare const OPENDEV_VERSION: string | undefined;

/** Exit codes: 0 done, 1 the agent or the provider failed, 2 bad usage or configuration, 130 interrupted. */
async function main(argv: string[]): Promise<number> {
  let options: CliOptions;
  let agent: Agent;
  try {
    options = parseCliArgs(argv);
    if (options.help) return print(HELP);
    if (options.version) return print(version());
    const workspaceRoot = resolve(options.workingDir ?? process.cwd());
    if (!existsSync(workspaceRoot) || !statSync(workspaceRoot).isDirectory()) {
      throw new UsageError(`--working-dir ${workspaceRoot} is not a folder`);
    }
    agent = await createMainAgent({ roles: { action: settingsFromEnv(options, process.env) }, workspaceRoot });
  } catch (err) {
    return reportSetupError(err);
  }
  if (options.prompt === undefined) return runRepl(agent);
  return runOnce(agent, options.prompt, options);
}

async function runOnce(agent: Agent, prompt: string, options: CliOptions): Promise<number> {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  const progress = new StreamRenderer((t) => process.stderr.write(t), process.stderr.isTTY ?? false);
  const ui = {
    onTextDelta() {},
    onToolStart: (call: { id: string; name: string; args: string }) => options.verbose && progress.onToolStart(call),
    onToolEnd: (...args: Parameters<StreamRenderer['onToolEnd']>) => options.verbose && progress.onToolEnd(...args),
  };
  const result = await agent.runTurn(prompt, ui, controller.signal);
  if (options.outputFormat === 'json') {
    process.stdout.write(`${JSON.stringify(jsonResult(result))}\n`);
  } else if (result.text) {
    process.stdout.write(result.text.endsWith('\n') ? result.text : `${result.text}\n`);
  }
  return exitCode(result);
}

function exitCode(result: TurnResult): number {
  switch (result.status) {
    case 'completed':
      if (result.taskStatus === 'failure') {
        process.stderr.write('opendev: the agent reported that it could not complete the task.\n');
        return 1;
      }
      return 0;
    case 'stopped':
      process.stderr.write('opendev: stopped.\n');
      return 130;
    case 'iteration_limit':
      process.stderr.write('opendev: the agent hit its iteration limit before finishing.\n');
      return 1;
    case 'failed':
      process.stderr.write(`opendev: ${result.error.message}\n`);
      return 1;
  }
}

function jsonResult(result: TurnResult) {
  return {
    status: result.status,
    result: result.text,
    usage: result.usage,
    ...(result.status === 'failed' ? { error: { kind: result.error.kind, message: result.error.message } } : {}),
  };
}

function reportSetupError(err: unknown): number {
  if (err instanceof MissingApiKeyError) {
    const vars = PROVIDER_ENV[err.provider];
    process.stderr.write(
      `opendev: no API key for ${PROVIDER_LABELS[err.provider]}. Set ${vars.apiKey}` +
        ` (and ${vars.baseUrl} for a different endpoint), or choose another provider with --provider.\n`,
    );
    return 2;
  }
  if (err instanceof UsageError) {
    process.stderr.write(`opendev: ${err.message}\nRun "opendev --help" for usage.\n`);
    return 2;
  }
  process.stderr.write(`opendev: ${(err as Error).message ?? String(err)}\n`);
  return 1;
}

function print(text: string): number {
  process.stdout.write(`${text}\n`);
  return 0;
}

function version(): string {
  return typeof OPENDEV_VERSION === 'string' ? OPENDEV_VERSION : 'dev';
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`opendev: unexpected error: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  },
);
