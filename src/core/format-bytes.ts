/**
 * A byte count as people read it: `12 B`, `2.0 KB`, `1.4 MB`, `2.1 GB` (binary units, one
 * decimal above a kilobyte). The one formatter for sizes in tool results and notes.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'] as const;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
