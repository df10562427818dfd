import { matchServerPattern } from '../process/server-patterns';

/**
 * Why a command runs outside the sandbox although it is on: a server (the sixteen patterns) must
 * listen where the user's browser and the next commands reach it, and the sandbox gives each
 * command a network of its own. Nothing contains such a command, so it asks at every level
 * (safety/call-judge.ts), unless a rule allows that exact command.
 */
export function serverOutsideSandbox(command: string): string | undefined {
  const server = matchServerPattern(command);
  return server ? `it starts a server (${server.name}), which must be reachable from your browser and from other commands` : undefined;
}
