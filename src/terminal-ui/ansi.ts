const CODES = {
  dim: '\x1b[2m',
  red: '\x1b[31m',
  green: '\x1b[32m',
  yellow: '\x1b[33m',
  bold: '\x1b[1m',
  cyan: '\x1b[36m',
  magenta: '\x1b[35m',
} as const;
const RESET = '\x1b[0m';

export type Style = keyof typeof CODES;

export function style(text: string, kind: Style, enabled: boolean): string {
  return enabled ? `${CODES[kind]}${text}${RESET}` : text;
}

/** Clears the screen and homes the cursor. */
export const CLEAR_SCREEN = '\x1b[2J\x1b[H';
