/** Work cap (LCS cells) for one block; a larger one is not examined (the anchor pass caps its own work too). */
const MAX_CELLS = 4_000_000;

/** Where old_content and the block an anchor pass found disagree in a way a replacement would hide. */
export interface UnquotedLines {
  /** 0-based lines of the block that old_content skipped: nothing of old_content stands in their place. */
  skipped: number[];
  /** 0-based lines of old_content the block does not have at all: nothing of the block stands in their place. */
  invented: number[];
}

/**
 * Lines the block-anchor and context-aware passes tolerate that the model cannot have meant. The
 * non-blank lines of both sides (trimmed) are aligned by their longest common subsequence; between
 * two aligned lines, a run of the block's lines facing none of old_content's was skipped when the
 * model quoted the block (it never saw them), and a run of old_content's lines facing none of the
 * block's was invented. A run with lines on both sides is a misquoted place, which new_content
 * replaces like any other. Undefined when the block is too large to align.
 */
export function unquotedLines(oldLines: readonly string[], blockLines: readonly string[]): UnquotedLines | undefined {
  const a = nonBlank(oldLines);
  const b = nonBlank(blockLines);
  const n = a.length;
  const m = b.length;
  if (n * m > MAX_CELLS) return undefined;
  // lcs[i][j]: the LCS of a[i..] and b[j..], in one flat array.
  const width = m + 1;
  const lcs = new Int32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i]!.text === b[j]!.text ? lcs[(i + 1) * width + j + 1]! + 1 : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const out: UnquotedLines = { skipped: [], invented: [] };
  let gapA: number[] = [];
  let gapB: number[] = [];
  const closeGap = () => {
    if (gapA.length === 0) out.skipped.push(...gapB);
    if (gapB.length === 0) out.invented.push(...gapA);
    gapA = [];
    gapB = [];
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i]!.text === b[j]!.text) {
      closeGap();
      i++;
      j++;
    } else if (j >= m || (i < n && lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!)) gapA.push(a[i++]!.index);
    else gapB.push(b[j++]!.index);
  }
  closeGap();
  return out;
}

function nonBlank(lines: readonly string[]): Array<{ index: number; text: string }> {
  const out: Array<{ index: number; text: string }> = [];
  lines.forEach((line, index) => {
    const text = line.trim();
    if (text !== '') out.push({ index, text });
  });
  return out;
}
