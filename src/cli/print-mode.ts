import type { Agent } from '../core/agent/agent';
import type { TurnResult } from '../core/agent/turn-result';
import {
  escapedPrompt,
  isSlashCommand,
  parseSlashCommand,
  type CommandResult,
  type ModelInfo,
  type SlashCommandRegistry,
} from '../core/commands/slash-commands';
import type { SessionRecorder } from '../core/session/session-recorder';
import { StreamRenderer } from '../terminal-ui/stream-renderer';
import type { CliOptions } from './args';
import { createHeadlessUI } from './headless-ui';
import { commandResultJson, turnResultJson, type PrintResult, type StreamEvent } from './stream-events';

export interface PrintModeDeps {
  /** Builds the agent when the prompt needs one (not for `-p /help`); throws when it cannot be built. */
  agent: () => Promise<Agent>;
  options: CliOptions & { prompt: string };
  /** What saves the run's session: read once the agent is built, since a resumed session brings its own. */
  recorder: () => SessionRecorder;
  commands: SlashCommandRegistry;
  models: readonly ModelInfo[];
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /**
   * The text answer as a terminal shows it (markdown drawn in colour), when stdout is one. Absent
   * (a pipe, a file, NO_COLOR): the answer is printed as the model wrote it, plain markdown that
   * scripts can parse.
   */
  formatAnswer?: (text: string) => string;
  /** Aborted on Ctrl+C (SIGINT). */
  signal: AbortSignal;
}

/** Exit codes: 0 done, 1 the agent or the provider failed, 2 bad usage, 130 interrupted. */
export const EXIT = { ok: 0, failure: 1, usage: 2, interrupted: 130 } as const;

/**
 * `opendev -p`: one prompt (or slash command), no human. Prints the final answer (text), one JSON
 * object (json), or one JSON event per line (stream-json); saves the session.
 */
export async function runPrintMode(deps: PrintModeDeps): Promise<number> {
  const { options, stdout } = deps;
  const emit = options.outputFormat === 'stream-json' ? (event: StreamEvent) => stdout(`${JSON.stringify(event)}\n`) : undefined;
  const warn = (text: string) => deps.stderr(`opendev: ${text}\n`);

  let prompt = options.prompt;
  // A command that needs no model (/help, /models, /config…) runs without an agent, so without a key.
  const agent = isSlashCommand(prompt) && !deps.commands.needsAgent(prompt) ? undefined : await deps.agent();
  if (isSlashCommand(prompt)) {
    const name = parseSlashCommand(prompt)!.name;
    const result = await deps.commands.run(prompt, {
      ...(agent ? { agent } : {}),
      sessions: deps.recorder().store,
      session: deps.recorder().current,
      front: 'cli',
      workingDir: deps.recorder().workingDir,
      models: deps.models,
    });
    if (result.newSession) deps.recorder().detach();
    if (!result.runPrompt || result.error) return finishCommand(deps, agent, name, result, emit);
    if (result.output && options.outputFormat === 'text' && options.verbose) deps.stderr(`${result.output}\n`);
    prompt = result.runPrompt;
  } else {
    prompt = escapedPrompt(prompt);
  }

  const turnAgent = agent ?? (await deps.agent());
  const progress = options.verbose ? new StreamRenderer(deps.stderr, { color: false }) : undefined;
  const allow = { outsideWorkspace: options.allowOutsideWorkspace, riskyCommands: options.allowRiskyCommands, unsandboxed: options.allowUnsandboxed };
  const ui = createHeadlessUI({ approval: options.approval, allow, emit, progress, warn });
  let result: TurnResult;
  try {
    result = await turnAgent.runTurn(prompt, ui, deps.signal);
  } finally {
    progress?.newline();
  }

  let sessionId: string | undefined;
  try {
    sessionId = (await deps.recorder().save(turnAgent))?.meta.id;
  } catch (err) {
    warn(`warning: could not save the session: ${(err as Error).message}`);
  }
  if (options.verbose && sessionId) warn(`session ${sessionId} (continue it with opendev --continue or --resume ${sessionId})`);

  const json = turnResultJson(result, turnAgent.cost(), sessionId);
  output(deps, json, emit, result.text);
  return exitCode(result, warn);
}

function finishCommand(deps: PrintModeDeps, agent: Agent | undefined, name: string, result: CommandResult, emit: ((e: StreamEvent) => void) | undefined): number {
  const json = commandResultJson(name, result, agent?.cost(), deps.recorder().id);
  if (result.error && deps.options.outputFormat === 'text') {
    deps.stderr(`opendev: ${result.output}\n`);
    return result.error === 'usage' ? EXIT.usage : EXIT.failure;
  }
  output(deps, json, emit, result.output);
  if (result.error) return result.error === 'usage' ? EXIT.usage : EXIT.failure;
  return EXIT.ok;
}

function output(deps: PrintModeDeps, json: PrintResult, emit: ((e: StreamEvent) => void) | undefined, text: string): void {
  switch (deps.options.outputFormat) {
    case 'stream-json':
      emit!({ type: 'result', ...json });
      break;
    case 'json':
      deps.stdout(`${JSON.stringify(json)}\n`);
      break;
    case 'text':
      if (!text) break;
      if (deps.formatAnswer) deps.stdout(deps.formatAnswer(text));
      else deps.stdout(text.endsWith('\n') ? text : `${text}\n`);
      break;
  }
}

function exitCode(result: TurnResult, warn: (text: string) => void): number {
  switch (result.status) {
    case 'completed':
      if (result.taskStatus === 'failure') {
        warn('the agent reported that it could not complete the task.');
        return EXIT.failure;
      }
      return EXIT.ok;
    case 'stopped':
      warn('stopped.');
      return EXIT.interrupted;
    case 'iteration_limit':
      warn('the agent hit its iteration limit before finishing (raise it with --max-iterations).');
      return EXIT.failure;
    case 'failed':
      warn(result.error.message);
      return EXIT.failure;
    case 'blocked':
      // The reason is already on stderr (the agent's notice); the model was not called.
      return EXIT.failure;
  }
}
