const CODES = { dim: '\x1b[2m', red: '\x1b[31m', bold: '\x1b[1m', cyan: '\x1b[36m' } as const;
const RESET = '\x1b[0m';

export function style(text: string, kind: keyof typeof CODES, enabled: boolean): string {
  return enabled ? `${CODES[kind]}${text}${RESET}` : text;
}
