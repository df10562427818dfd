import { MAX_LINE_CHARS } from './limits';

/** One printed line: a match (counted), a context line, or a further line of a multi-line ast match. */
export interface SearchLine {
  line: number;
  text: string;
  kind: 'match' | 'context' | 'continuation';
  /** A very long line whose match lies past what ripgrep previewed: the byte offset of the match,
   *  for `fillLongLines` to read the text around it from the file. */
  fillAt?: number;
}

/** The matches of one file: contiguous runs of lines ("blocks"), at most `cap` matches kept. */
export interface FileMatches {
  /** Workspace-relative, with forward slashes. */
  path: string;
  /** Every match in the file, kept or not. */
  matchCount: number;
  blocks: SearchLine[][];
}

/** What any search engine hands back to the formatter. */
export interface SearchOutcome {
  files: FileMatches[];
  totalMatches: number;
  totalFiles: number;
  /** Shown above the results: fallbacks, skipped files, engine warnings. */
  notices: string[];
  /** Set when the search did not finish: its results are partial. */
  stopped?: 'timeout' | 'aborted';
}

/**
 * Builds one file's blocks from lines arriving in order (ripgrep's match and context events, or
 * the built-in search). After `cap` matches it keeps only the trailing context of the last one.
 */
export class FileMatchBuilder {
  private readonly blocks: SearchLine[][] = [];
  private current: SearchLine[] | undefined;
  private lastLine = -1;
  private kept = 0;
  private trailing = 0;
  private full = false;
  matchCount = 0;

  constructor(
    readonly path: string,
    private readonly cap: number,
    private readonly contextLines: number,
  ) {}

  /** `truncated`: `text` is only the start of a longer line; `fillAt`: see SearchLine. */
  addMatch(line: number, text: string, focus = 0, truncated = false, fillAt?: number): void {
    this.matchCount++;
    if (this.full) return;
    if (this.kept === this.cap) {
      this.full = true;
      return;
    }
    this.kept++;
    this.trailing = 0;
    this.push({ line, text: cutLine(text, focus, truncated), kind: 'match', ...(fillAt !== undefined ? { fillAt } : {}) });
  }

  addContext(line: number, text: string, truncated = false): void {
    if (this.full) return;
    if (this.kept === this.cap) {
      if (this.trailing >= this.contextLines) return;
      this.trailing++;
    }
    this.push({ line, text: cutLine(text, 0, truncated), kind: 'context' });
  }

  /** A whole block at once (an ast match: its node's lines). Counts as one match. */
  addBlock(lines: SearchLine[]): void {
    this.matchCount++;
    if (this.kept === this.cap) return;
    this.kept++;
    this.blocks.push(lines);
    this.current = undefined;
  }

  done(): FileMatches {
    return { path: this.path, matchCount: this.matchCount, blocks: this.blocks };
  }

  private push(line: SearchLine): void {
    if (!this.current || line.line !== this.lastLine + 1) {
      this.current = [];
      this.blocks.push(this.current);
    }
    this.current.push(line);
    this.lastLine = line.line;
  }
}

/**
 * Keeps, in path order, only the files needed to show the first `cap` matches, whatever order the
 * engine (ripgrep is multi-threaded) reports them in: the result is deterministic and memory stays
 * bounded however many files match. Every file still counts towards the totals.
 */
export class MatchCollector {
  private kept: FileMatches[] = [];
  private cutoff: string | undefined;
  totalMatches = 0;
  totalFiles = 0;

  constructor(private readonly cap: number) {}

  /** False when a file at this path could not be shown: the engine may then only count its matches. */
  wants(path: string): boolean {
    return this.cutoff === undefined || path < this.cutoff;
  }

  /** A file whose matches were only counted. */
  count(matches: number): void {
    if (matches === 0) return;
    this.totalMatches += matches;
    this.totalFiles++;
  }

  add(file: FileMatches): void {
    if (file.matchCount === 0) return;
    this.count(file.matchCount);
    if (!this.wants(file.path)) return;
    const at = this.kept.findIndex((f) => f.path > file.path);
    if (at === -1) this.kept.push(file);
    else this.kept.splice(at, 0, file);
    let shown = 0;
    for (let i = 0; i < this.kept.length; i++) {
      shown += Math.min(this.kept[i]!.matchCount, this.cap);
      if (shown >= this.cap) {
        this.kept.length = i + 1;
        this.cutoff = this.kept[i]!.path;
        break;
      }
    }
  }

  outcome(notices: string[], stopped?: SearchOutcome['stopped']): SearchOutcome {
    return { files: this.kept, totalMatches: this.totalMatches, totalFiles: this.totalFiles, notices, stopped };
  }
}

/**
 * Cuts a very long line (minified code) to a window around `focus`, the match's position.
 * `truncated`: the text is already only part of the line (ripgrep's preview).
 */
export function cutLine(text: string, focus: number, truncated = false): string {
  if (text.length <= MAX_LINE_CHARS && !truncated) return text;
  const start = Math.max(0, Math.min(focus - 80, text.length - MAX_LINE_CHARS));
  const end = start + MAX_LINE_CHARS;
  const note = truncated ? 'long line cut' : `line of ${text.length.toLocaleString('en-US')} chars cut`;
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}… [${note}]`;
}
