/** The files and lines a search result shows: "path:line:" for matches, "path:line-" for context, "path:line|" for further lines of an ast match. */
export function shownLines(output: string): string[] {
  const out: string[] = [];
  let file = '';
  for (const line of output.split('\n')) {
    const numbered = /^\s*(\d+)([:|-]) /.exec(line);
    if (numbered && file) out.push(`${file}:${numbered[1]}${numbered[2]}`);
    else if (/^[\w./-]+$/.test(line) && !/^\d/.test(line) && line !== '--') file = line;
  }
  return out;
}
