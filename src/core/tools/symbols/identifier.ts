import { extname } from 'node:path';

/**
 * Reserved words by file extension, for the languages whose rename providers accept them and
 * leave code that no longer parses. Other languages' servers check names themselves.
 */
const JS_RESERVED =
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if ' +
  'import in instanceof new null return super switch this throw true try typeof var void while with yield let static ' +
  'implements interface package private protected public';
const PYTHON_RESERVED =
  'False None True and as assert async await break class continue def del elif else except finally for from global if ' +
  'import in is lambda nonlocal not or pass raise return try while with yield';

const RESERVED_BY_EXTENSION: Readonly<Record<string, ReadonlySet<string>>> = (() => {
  const js = new Set(JS_RESERVED.split(' '));
  const py = new Set(PYTHON_RESERVED.split(' '));
  const table: Record<string, ReadonlySet<string>> = {};
  for (const ext of ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts']) table[ext] = js;
  for (const ext of ['.py', '.pyi', '.pyw']) table[ext] = py;
  return table;
})();

/**
 * Why `name` cannot be the new name of a symbol declared in `file`, or undefined when it can:
 * one identifier (letters, digits, `_`, `$`, not starting with a digit), not a reserved word.
 */
export function identifierProblem(name: string, file: string): string | undefined {
  if (name === '') return 'new_name is empty';
  if (/\s/.test(name)) return `"${name}" contains whitespace; give a single identifier`;
  if (!/^[\p{L}\p{Nl}_$][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$]*$/u.test(name)) {
    return /^\p{Nd}/u.test(name) ? `"${name}" starts with a digit` : `"${name}" is not an identifier (letters, digits, _ and $ only)`;
  }
  if (RESERVED_BY_EXTENSION[extname(file).toLowerCase()]?.has(name)) return `"${name}" is a reserved word in ${extname(file)} files`;
  return undefined;
}
