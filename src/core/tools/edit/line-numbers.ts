/**
 * Line-number prefixes a model copies along with the code: read_file's `     12\t` and the
 * `12 | ` style other tools print. Removed only when every line carries the same style, so
 * text that merely starts with a number is never touched.
 */
const STYLES = [/^ *\d+\t/, /^ *\d+ \| ?/];

export function stripLineNumbers(text: string): string | undefined {
  const lines = text.split('\n');
  const body = lines.length > 1 && lines[lines.length - 1] === '' ? lines.slice(0, -1) : lines;
  if (body.length === 0 || (body.length === 1 && body[0] === '')) return undefined;
  for (const style of STYLES) {
    if (body.every((line) => style.test(line))) {
      return lines.map((line, i) => (i < body.length ? line.replace(style, '') : line)).join('\n');
    }
  }
  return undefined;
}
