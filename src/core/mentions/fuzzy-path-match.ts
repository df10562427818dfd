/**
 * Fuzzy matching of workspace paths for `@` completion: the query's characters must appear in the
 * path in order (case-insensitive); runs of consecutive characters, matches at the start of a
 * segment (after `/`, `.`, `-`, `_`) and matches in the file name score higher, shorter paths win ties.
 */
export interface PathCandidate {
  /** Workspace-relative, `/` separators; folders end without a slash. */
  path: string;
  kind: 'file' | 'folder';
}

export function fuzzyScore(query: string, path: string): number | undefined {
  const q = query.toLowerCase();
  const p = path.toLowerCase();
  if (!q) return 1 / (1 + path.length);
  const nameStart = p.lastIndexOf('/') + 1;
  let score = 0;
  let from = 0;
  let run = 0;
  for (const ch of q) {
    const at = p.indexOf(ch, from);
    if (at < 0) return undefined;
    run = at === from && from > 0 ? run + 1 : 0;
    score += 1 + run * 2;
    if (at === 0 || '/._-'.includes(p[at - 1]!)) score += 3;
    if (at >= nameStart) score += 1;
    from = at + 1;
  }
  const name = p.slice(nameStart);
  if (name.startsWith(q)) score += 20;
  else if (name.includes(q)) score += 12;
  else if (p.includes(q)) score += 6;
  return score - path.length * 0.01;
}

/** The best `limit` candidates for the query, best first. */
export function rankPaths(query: string, candidates: readonly PathCandidate[], limit: number): PathCandidate[] {
  const scored: Array<{ candidate: PathCandidate; score: number }> = [];
  for (const candidate of candidates) {
    const score = fuzzyScore(query, candidate.path);
    if (score !== undefined) scored.push({ candidate, score });
  }
  scored.sort((a, b) => b.score - a.score || a.candidate.path.localeCompare(b.candidate.path));
  return scored.slice(0, limit).map((s) => s.candidate);
}

/** The folders the files sit in (every ancestor, once), for folder mentions. */
export function foldersOf(files: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const file of files) {
    let cut = file.lastIndexOf('/');
    while (cut > 0) {
      const folder = file.slice(0, cut);
      if (folders.has(folder)) break;
      folders.add(folder);
      cut = folder.lastIndexOf('/');
    }
  }
  return [...folders];
}
