// Slash commands (paper §2.2.4): a prompt starting with `/` is handled by the front end without the
// model, in the CLI (-p and the REPL), the OpenDev terminal and the VS Code chat view. Their text
// output is for the user, not the model.
//
//   const commands = createSlashCommands();
//   if (isSlashCommand(text)) {
//     const result = await commands.run(text, { agent, sessions, session, front: 'vscode', workingDir, models });
//     show(result.output); if (result.runPrompt) send(result.runPrompt); if (result.newSession) …
//   }
import { registerBuiltinCommands, type BuiltinCommandOptions } from './builtin-commands';
import { SlashCommandRegistry } from './command-registry';

export {
  escapedPrompt,
  isSlashCommand,
  keyless,
  parseSlashCommand,
  SlashCommandRegistry,
  type CommandAgent,
  type CommandContext,
  type CommandResult,
  type KeylessContext,
  type SlashCommand,
} from './command-registry';

export type { BuiltinCommandOptions } from './builtin-commands';
export type { ModelInfo } from '../config/model-role-settings';

/** A registry with every built-in command (a fresh one each call: hosts may register more). */
export function createSlashCommands(options: BuiltinCommandOptions = {}): SlashCommandRegistry {
  return registerBuiltinCommands(new SlashCommandRegistry(), options);
}

const builtin = createSlashCommands();

/** Autocomplete for the built-in commands: `/th` → `/thinking`, `/thinking h` → `/thinking high`. */
export function completeSlashCommand(prefix: string): string[] {
  return builtin.complete(prefix);
}
