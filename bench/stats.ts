/** Small helpers shared by the benchmarks: percentiles and a plain table printer. */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? NaN;
}

export function printTable(title: string, rows: Array<Record<string, string>>): void {
  console.log(`\n${title}`);
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]) => `  ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')}`;
  console.log(line(columns));
  for (const row of rows) console.log(line(columns.map((c) => row[c] ?? '')));
}
