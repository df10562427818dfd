/**
 * What a terminal shows after `written`: the rows, with colours dropped and the cursor moves the
 * stream renderer uses applied (\r, \n, ESC[nA up, ESC[J clear to the end). Enough to tell a line
 * drawn over in place from a line printed again.
 */
export function terminalScreen(written: string): string[] {
  const rows: string[] = [''];
  let row = 0;
  let col = 0;
  // eslint-disable-next-line no-control-regex
  const text = written.replace(/\x1b\[[0-9;]*m/g, '');
  for (let i = 0; i < text.length; ) {
    // eslint-disable-next-line no-control-regex
    const esc = /^\x1b\[(\d*)([AJ])/.exec(text.slice(i));
    if (esc) {
      if (esc[2] === 'A') row = Math.max(0, row - Number(esc[1] || 1));
      else {
        rows[row] = rows[row]!.slice(0, col);
        rows.length = row + 1;
      }
      i += esc[0].length;
      continue;
    }
    const ch = text[i++]!;
    if (ch === '\r') col = 0;
    else if (ch === '\n') {
      row++;
      col = 0;
      if (rows.length <= row) rows.push('');
    } else {
      const line = rows[row]!.padEnd(col);
      rows[row] = line.slice(0, col) + ch + line.slice(col + 1);
      col++;
    }
  }
  return rows[rows.length - 1] === '' ? rows.slice(0, -1) : rows;
}
