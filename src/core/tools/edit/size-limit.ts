import { ToolError } from '../tool';
import { editText } from './edit-texts';

/**
 * The largest file edit_file reads. An edit holds the file several times over (the bytes, the
 * text, its lines, the new text, the diff): a 200 MB file took minutes and gigabytes. Checked with
 * stat before anything is read, so a refusal costs nothing.
 */
export const MAX_EDIT_BYTES = 10 * 1024 * 1024;

/** Throws a `too_large` ToolError that names the way to change such a file instead. */
export function assertEditableSize(size: number, shown: string): void {
  if (size <= MAX_EDIT_BYTES) return;
  throw new ToolError('too_large', editText('too_large', { FILE: shown, SIZE: formatBytes(size), LIMIT: formatBytes(MAX_EDIT_BYTES) }));
}

export function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 1 ? `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
