import { wholeLines, type EditPass, type FoundText } from './pass';
import { splitFindLines } from './text-lines';

/**
 * The least middle similarity a block-anchor match needs. The paper asks 0.3, and only when
 * several blocks share the anchors; a lone candidate passes whatever its middle holds. That is
 * the loose match peers now reject (opencode-tool-newest-*): it replaces lines the model never
 * quoted. We ask every candidate, lone or not, for the context-aware pass's 0.5, measured on
 * whole lines: the longest common subsequence of the two middles' non-empty trimmed lines over
 * the longer middle, so at least half of the middle must be lines the file really has (unrelated
 * code shares almost no whole lines, where character-level measures give 0.3 to short unrelated lines).
 * With 0.3, "// different content" + one real line out of three still passed (opencode-replacer-05/28).
 */
export const BLOCK_ANCHOR_MIN_SIMILARITY = 0.5;

/**
 * Work cap (LCS cells) for one run of the pass. Only files made of the same few lines over and
 * over (thousands of `}` anchors) come near it; past it the pass finds nothing, which the model
 * sees as "not found", rather than stall the agent.
 */
const MAX_CELLS = 20_000_000;

/**
 * Pass 3: the first and last lines of old_content (trimmed) anchor a block of the file; the
 * lines between may differ, but must be similar enough. Needs at least three lines. For each
 * opening anchor the closing anchor giving the most similar block wins (not the nearest one: an
 * inner `}` must not cut a function short). Several qualifying blocks are all returned (the chain
 * then refuses an ambiguous edit).
 */
export const blockAnchorPass: EditPass = {
  name: 'block-anchor',
  find(file, find) {
    const lines = splitFindLines(find);
    if (lines.length < 3) return [];
    const first = lines[0]!.trim();
    const last = lines[lines.length - 1]!.trim();
    if (first === '' || last === '') return [];
    const ids = new Map<string, number>();
    const intern = (s: string) => {
      let id = ids.get(s);
      if (id === undefined) ids.set(s, (id = ids.size));
      return id;
    };
    const oldMiddle = lines.slice(1, -1).map((l) => l.trim()).filter((l) => l !== '').map(intern);
    const m = oldMiddle.length;
    // More non-empty middle lines than m / threshold can never reach the threshold.
    const maxBlockLines = Math.floor(m / BLOCK_ANCHOR_MIN_SIMILARITY);
    const maxSpan = maxBlockLines + lines.length + 10;
    const trimmed = file.trimmed;
    const found: FoundText[] = [];
    let cells = 0;
    let prev = new Int32Array(m + 1);
    let cur = new Int32Array(m + 1);
    for (let i = 0; i < file.count; i++) {
      if (trimmed[i] !== first) continue;
      prev.fill(0);
      let blockLines = 0;
      let best: { end: number; score: number } | undefined;
      for (let t = i + 1; t < file.count && t - i <= maxSpan && blockLines <= maxBlockLines; t++) {
        const line = trimmed[t]!;
        if (line === last && t >= i + 2) {
          // prev holds the LCS of old_content's middle and the block's lines i+1..t-1.
          const score = m === 0 && blockLines === 0 ? 1 : prev[m]! / Math.max(m, blockLines);
          const closer = best !== undefined && Math.abs(t - i + 1 - lines.length) < Math.abs(best.end - i + 1 - lines.length);
          if (!best || score > best.score || (score === best.score && closer)) best = { end: t, score };
        }
        if (line === '') continue;
        const id = intern(line);
        cur[0] = 0;
        for (let k = 1; k <= m; k++) cur[k] = oldMiddle[k - 1] === id ? prev[k - 1]! + 1 : Math.max(prev[k]!, cur[k - 1]!);
        [prev, cur] = [cur, prev];
        blockLines++;
        cells += m;
        if (cells > MAX_CELLS) return [];
      }
      if (best && best.score >= BLOCK_ANCHOR_MIN_SIMILARITY) {
        const whole = best.end - i + 1 === lines.length;
        found.push(wholeLines(file, i, best.end, whole ? lines : [lines[0]!, lines[lines.length - 1]!]));
      }
    }
    return found;
  },
};
