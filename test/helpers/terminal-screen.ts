/**
 * Drivers for the terminal front end in tests, unit (the REPL over streams) and integration (the
 * OpenDev Agent tab in VS Code) alike.
 */

/** Text as a terminal sends it: one keystroke at a time, an escape sequence (arrows, Shift+Tab) as one key. A burst would be a paste to readline. */
export function keystrokes(text: string): string[] {
  return text.match(/\x1b\[[0-9;]*[A-Za-z~]|[\s\S]/gu) ?? [];
}

/** Waits until the screen matches `pattern`; on timeout the error shows what the screen holds. */
export async function waitForScreen(screen: () => string, pattern: RegExp, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(screen())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; the screen shows:\n${screen()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
