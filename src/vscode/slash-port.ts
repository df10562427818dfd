import {
  createSlashCommands,
  escapedPrompt,
  parseSlashCommand,
  type CommandResult,
  type KeylessContext,
  type SlashCommandRegistry,
} from '../core/commands/slash-commands';
import type { SlashCompletion } from '../shared/protocol';

/** What the chat needs from the shared slash-command registry (src/core/commands). */
export interface SlashCommandPort {
  /** `/name …` is a command; `//text` is a prompt with one slash removed. */
  parse(text: string): { command: string; name: string } | { prompt: string };
  /** Safe to run while the agent works (it does not change the conversation). */
  runsWhileBusy(name: string): boolean;
  /** The command needs the agent (a model and its key); /help and the other keyless ones do not. */
  needsAgent(text: string): boolean;
  run(text: string, ctx: KeylessContext): Promise<CommandResult>;
  complete(prefix: string): SlashCompletion[];
}

const MAX_COMPLETIONS = 20;

/**
 * Adapts a registry for the chat. Completion is the registry's own (`completeSlashCommand` is the
 * same function over the built-ins), so commands a host registers complete too.
 */
export function slashPort(registry: SlashCommandRegistry): SlashCommandPort {
  return {
    parse(text) {
      const parsed = parseSlashCommand(text);
      return parsed ? { command: text, name: parsed.name } : { prompt: escapedPrompt(text) };
    },
    runsWhileBusy(name) {
      // An unknown command only prints "Unknown command…", which is harmless at any time.
      const command = registry.get(name);
      return !command || command.whileRunning === true;
    },
    needsAgent(text) {
      return registry.needsAgent(text);
    },
    run(text, ctx) {
      return registry.run(text, ctx);
    },
    complete(prefix) {
      return registry
        .complete(prefix)
        .slice(0, MAX_COMPLETIONS)
        .map((line) => {
          const command = registry.get(line.split(' ')[0] ?? line);
          const description = command ? `${command.summary}${command.available === false ? ' (not available yet)' : ''}` : '';
          // A command's name gets its arguments as a hint (`/thinking` → `[off|low|medium|high]`).
          const hint = command && !line.includes(' ') ? command.usage.slice(`/${command.name}`.length).trim() : '';
          return hint ? { name: line, description, hint } : { name: line, description };
        });
    },
  };
}

/** The chat view's commands: every built-in of the shared registry. */
export function builtinSlashPort(): SlashCommandPort {
  return slashPort(createSlashCommands());
}
