/**
 * The longest command line the agent may run: past it nothing is read or judged, and the command
 * is refused with what to do instead (a long script belongs in a file). Reading is linear, but a
 * person cannot review 10 MB before approving it either.
 */
export const MAX_COMMAND_CHARS = 100_000;

/** Why `command` is refused for its length, or undefined when it is within the limit. */
export function commandTooLong(command: string): string | undefined {
  if (command.length <= MAX_COMMAND_CHARS) return undefined;
  return `the command is ${size(command.length)}; the limit is ${size(MAX_COMMAND_CHARS)}: write the script to a file in the workspace and run that`;
}

/** Characters as decimal sizes (`100 KB`, `10 MB`), one decimal where it matters. */
function size(chars: number): string {
  const [value, unit] = chars >= 1_000_000 ? [chars / 1_000_000, 'MB'] : [chars / 1000, 'KB'];
  return `${Number.isInteger(Math.round(value * 10) / 10) ? Math.round(value) : value.toFixed(1)} ${unit}`;
}
