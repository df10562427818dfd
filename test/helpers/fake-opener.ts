import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A fake `xdg-open` first on PATH: it writes each argument on its own line to `log` and exits
 * with `exitCode`. Never a real browser.
 */
export function fakeOpener(exitCode = 0): { binDir: string; log: string; calls: () => string[][] } {
  const binDir = mkdtempSync(join(tmpdir(), 'opendev-opener-'));
  const log = join(binDir, 'calls.log');
  const script = join(binDir, 'xdg-open');
  writeFileSync(script, `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a" >> '${log}'; done\nprintf -- '--end--\\n' >> '${log}'\nexit ${exitCode}\n`);
  chmodSync(script, 0o755);
  const calls = () => (existsSync(log) ? readFileSync(log, 'utf8').split('--end--\n').filter(Boolean).map((c) => c.trimEnd().split('\n')) : []);
  return { binDir, log, calls };
}
