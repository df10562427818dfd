import { DIAGNOSTICS_WAIT_MS, describeErrors } from '../symbols/apply-symbol-edits';
import type { ToolExecutionContext } from '../tool';

/** What the editor found in a file after edit_file or write_file wrote it. */
export interface WriteErrors {
  /** For the model: the errors (at most 20), or that there are none. */
  report: string;
  count: number;
}

/**
 * Writes `file` through `write` and, in an editor host, then reads the file's error diagnostics the
 * way the symbol tools do (at most 20, waiting at most 3 s for the language server). Without an
 * editor, for a file no language extension checks, or when the check itself fails, `errors` is
 * undefined: the write is done either way.
 */
export async function writeAndCheck<T>(ctx: ToolExecutionContext, file: string, write: () => Promise<T>): Promise<{ value: T; errors?: WriteErrors }> {
  // Watching starts before the write, so the language server's first verdict on it is not missed.
  const check = ctx.host?.symbols?.watchWrite(file);
  try {
    const value = await write();
    const diagnostics = await check?.diagnosticsAfter(DIAGNOSTICS_WAIT_MS).catch(() => undefined);
    if (!diagnostics) return { value };
    const errors = diagnostics.filter((d) => d.severity === 'error');
    return { value, errors: { report: describeErrors(ctx.workspaceRoot, [file], errors), count: errors.length } };
  } finally {
    check?.dispose();
  }
}

/** The card's summary with the errors found after the write, if any. */
export function summaryWithErrors(summary: string, errors: WriteErrors | undefined): string {
  return errors?.count ? `${summary} · ${errors.count} error${errors.count === 1 ? '' : 's'}` : summary;
}
