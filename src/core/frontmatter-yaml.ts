/**
 * A frontmatter header read by the `yaml` package (loaded on first use), with its errors in the
 * words the rest of OpenDev uses: the line of the header, then what is wrong with it.
 */
import { yamlLibrary } from './lazy-libraries';
import type { YAMLError } from '../vendor/yaml';

export type HeaderValues = Record<string, unknown>;

/** The header's fields as YAML reads them: strings, numbers, booleans, null, lists and maps. */
export function readYamlHeader(header: string): { values: HeaderValues } | { error: string } {
  const first = readYaml(header);
  if ('values' in first) return first;
  // Files written for other tools often say `description: Use when: …` (or start a value with @ or
  // a backquote), which YAML refuses but their readers, and ours before yaml, take as text: read so,
  // and any error left is the one to report.
  const quoted = quoteTextValues(header);
  return quoted === header ? first : readYaml(quoted);
}

function readYaml(header: string): { values: HeaderValues } | { error: string } {
  const { parseDocument, visit } = yamlLibrary();
  // Silent: yaml would print its warnings (an unknown !tag) to the console; they change nothing here.
  const doc = parseDocument(header, { logLevel: 'silent' });
  if (doc.errors.length > 0) return { error: describeError(doc.errors[0]!, header) };
  // A block scalar's last line break is the end of the header, not part of the value.
  visit(doc, {
    Scalar(_, node) {
      if ((node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED') && typeof node.value === 'string') node.value = node.value.replace(/\n+$/, '');
    },
  });
  let values: unknown;
  try {
    values = doc.toJS();
  } catch (err) {
    return { error: (err as Error).message }; // an alias to no anchor, or too many aliases
  }
  if (values === null || values === undefined) return { values: {} };
  if (typeof values !== 'object' || Array.isArray(values)) {
    const lines = header.split('\n');
    const index = lines.findIndex((l) => l.trim() !== '' && !l.trim().startsWith('#'));
    return { error: `line ${index + 1} is not "key: value": ${lines[index]!.trim().slice(0, 60)}` };
  }
  return { values: values as HeaderValues };
}

/** yaml's error in the old reader's words where they fit: the line, then what is wrong. */
function describeError(error: YAMLError, header: string): string {
  const lineNumber = error.linePos?.[0].line ?? 1;
  const line = (header.split('\n')[lineNumber - 1] ?? '').trim();
  const key = /^([^:\s]+)\s*:/.exec(line)?.[1];
  if (error.code === 'DUPLICATE_KEY' && key) return `line ${lineNumber}: "${key}" is set twice`;
  if (error.code === 'MISSING_CHAR' && /quote/.test(error.message)) return `line ${lineNumber}: unterminated quoted value${key ? ` for "${key}"` : ''}`;
  if (error.code === 'MULTILINE_IMPLICIT_KEY' || /map keys need to be followed by map values/.test(error.message)) {
    return `line ${lineNumber} is not "key: value": ${line.slice(0, 60)}`;
  }
  return `line ${lineNumber}: ${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`;
}

/**
 * Top-level `key: value` lines whose plain value holds ": " (or ends with ":") or starts with a
 * character YAML reserves (@ ` %), the value single-quoted; a ` #` comment dropped.
 */
function quoteTextValues(header: string): string {
  return header
    .split('\n')
    .map((line) => {
      const match = /^([A-Za-z_][\w-]*):[ \t]+([^\s"'[{|>&*!#].*)$/.exec(line);
      if (!match) return line;
      const value = match[2]!.replace(/[ \t]+#.*$/, '').trimEnd();
      return /:([ \t]|$)/.test(value) || /^[@`%]/.test(value) ? `${match[1]}: '${value.replace(/'/g, "''")}'` : line;
    })
    .join('\n');
}
