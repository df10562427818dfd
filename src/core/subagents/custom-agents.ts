import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { resolveOpendevHome } from '../config/opendev-home';
import { MAIN_AGENT_ONLY_TOOLS, SUBAGENT_MAX_ITERATIONS, normalizeTypeName, type SubagentSpec } from './specs';

export interface CustomAgentsResult {
  /** User agents first, then project agents; a project agent replaces a user agent of the same name. */
  specs: SubagentSpec[];
  /** One line per file that was skipped or partly ignored, naming the file. Never thrown. */
  warnings: string[];
}

export interface CustomAgentsOptions {
  workspaceRoot: string;
  /** OPENDEV_HOME; default `$OPENDEV_HOME` or `~/.opendev`. */
  home?: string;
}

/**
 * Custom subagents: markdown files in `<workspace>/.opendev/agents/` (project) and
 * `<OPENDEV_HOME>/agents/` (user). YAML frontmatter: `name` (default: the file name), `description`
 * (required), `tools` (a list or a comma-separated string; absent = the safe read-only set), `model`,
 * `max_iterations`. The body is the system prompt. Project wins over user on a name clash; merge the
 * result after the builtins (`mergeSpecs`) to let a custom agent replace a builtin type.
 */
export function loadCustomAgents(options: CustomAgentsOptions): CustomAgentsResult {
  const home = options.home ?? resolveOpendevHome();
  const warnings: string[] = [];
  const user = loadDir(join(home, 'agents'), 'user', warnings);
  const project = loadDir(join(options.workspaceRoot, '.opendev', 'agents'), 'project', warnings);
  const byName = new Map<string, SubagentSpec>();
  for (const spec of [...user, ...project]) byName.set(normalizeTypeName(spec.name), spec);
  return { specs: [...byName.values()], warnings };
}

function loadDir(dir: string, source: 'project' | 'user', warnings: string[]): SubagentSpec[] {
  if (!existsSync(dir)) return [];
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.md')).sort();
  } catch (err) {
    warnings.push(`${dir}: cannot list the folder (${(err as Error).message})`);
    return [];
  }
  const specs: SubagentSpec[] = [];
  const seen = new Map<string, string>();
  for (const name of names) {
    const file = join(dir, name);
    try {
      if (!statSync(file).isFile()) continue;
      const spec = parseAgentFile(readFileSync(file, 'utf8'), file, source, warnings);
      if (!spec) continue;
      const key = normalizeTypeName(spec.name);
      const earlier = seen.get(key);
      if (earlier) {
        warnings.push(`${file}: agent "${spec.name}" is already defined in ${earlier}; this file is ignored`);
        continue;
      }
      seen.set(key, file);
      specs.push(spec);
    } catch (err) {
      warnings.push(`${file}: cannot read (${(err as Error).message})`);
    }
  }
  return specs;
}

const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9 _-]{0,63}$/;

/** Parses one agent file; undefined (with a warning) when it is invalid. Exported for tests. */
export function parseAgentFile(
  text: string,
  file: string,
  source: 'project' | 'user',
  warnings: string[],
): SubagentSpec | undefined {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const match = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)([\s\S]*)$/.exec(normalized);
  if (!normalized.startsWith('---\n')) {
    warnings.push(`${file}: missing YAML frontmatter (the file must start with a --- line, then name/description/tools, then ---)`);
    return undefined;
  }
  if (!match) {
    warnings.push(`${file}: the YAML frontmatter is not closed by a --- line`);
    return undefined;
  }
  const fields = parseFrontmatter(match[1]!);
  if ('error' in fields) {
    warnings.push(`${file}: invalid frontmatter: ${fields.error}`);
    return undefined;
  }
  const meta = fields.values;
  const name = asString(meta.name) ?? basename(file, '.md');
  if (!NAME_PATTERN.test(name)) {
    warnings.push(`${file}: invalid name "${name}" (letters, digits, spaces, - and _; starts with a letter; at most 64 chars)`);
    return undefined;
  }
  const description = asString(meta.description);
  if (!description) {
    warnings.push(`${file}: "description" is required (it tells the main agent when to use ${name})`);
    return undefined;
  }
  const body = match[2]!.trim();
  if (body === '') {
    warnings.push(`${file}: the body (the system prompt of ${name}) is empty`);
    return undefined;
  }

  let tools: string[] | undefined;
  if (meta.tools !== undefined) {
    const list = Array.isArray(meta.tools) ? meta.tools : typeof meta.tools === 'string' ? meta.tools.split(',') : undefined;
    if (!list) {
      warnings.push(`${file}: "tools" must be a list or a comma-separated string`);
      return undefined;
    }
    tools = list.map((t) => t.trim()).filter((t) => t !== '');
    const refused = tools.filter((t) => MAIN_AGENT_ONLY_TOOLS.includes(t));
    if (refused.length > 0) {
      warnings.push(`${file}: ${refused.join(', ')} ${refused.length === 1 ? 'is' : 'are'} for the main agent only; ignored`);
      tools = tools.filter((t) => !refused.includes(t));
    }
  }

  let maxIterations = SUBAGENT_MAX_ITERATIONS;
  if (meta.max_iterations !== undefined) {
    const n = Number(meta.max_iterations);
    if (Number.isInteger(n) && n > 0 && n <= 200) maxIterations = n;
    else warnings.push(`${file}: max_iterations must be a whole number from 1 to 200; using ${SUBAGENT_MAX_ITERATIONS}`);
  }

  const model = asString(meta.model);
  return {
    name,
    description,
    systemPrompt: body,
    allowedTools: tools,
    ...(model ? { model } : {}),
    maxIterations,
    canSpawn: tools?.includes('spawn_subagent') ?? false,
    spawnableTypes: ['Code-Explorer'],
    source,
    file,
  };
}

type YamlValue = string | string[];

/**
 * The YAML subset agent files use: `key: value` (plain, 'single' or "double" quoted), inline lists
 * `[a, b]`, block lists (`key:` then `- item` lines), block scalars (`key: |` or `>`), `#` comments.
 */
export function parseFrontmatter(text: string): { values: Record<string, YamlValue> } | { error: string } {
  const values: Record<string, YamlValue> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const kv = /^([A-Za-z_][A-Za-z0-9_-]*)\s*:(?:\s+(.*))?$/.exec(line.replace(/\s+$/, ''));
    if (!kv) return { error: `line ${i + 1} is not "key: value": ${line.trim().slice(0, 60)}` };
    const key = kv[1]!;
    const rest = (kv[2] ?? '').trim();
    if (key in values) return { error: `line ${i + 1}: "${key}" is set twice` };

    if (rest === '' || rest === '|' || rest === '>' || rest === '|-' || rest === '>-') {
      const block: string[] = [];
      while (i + 1 < lines.length && (lines[i + 1]!.trim() === '' || /^\s/.test(lines[i + 1]!))) block.push(lines[++i]!);
      while (block.length > 0 && block[block.length - 1]!.trim() === '') block.pop();
      if (rest === '') {
        const items = block.filter((l) => l.trim() !== '');
        if (items.length > 0 && items.every((l) => /^\s*-\s/.test(l) || /^\s*-$/.test(l))) {
          values[key] = items.map((l) => unquote(l.replace(/^\s*-\s?/, '').trim()));
        } else if (items.length > 0) {
          return { error: `"${key}" is followed by indented lines that are not "- item" list entries` };
        } else values[key] = '';
      } else {
        const indent = Math.min(...block.filter((l) => l.trim() !== '').map((l) => /^\s*/.exec(l)![0].length));
        const dedented = block.map((l) => l.slice(Number.isFinite(indent) ? indent : 0));
        values[key] = rest.startsWith('|') ? dedented.join('\n') : dedented.map((l) => l.trim()).join(' ').replace(/\s+/g, ' ').trim();
      }
      continue;
    }
    if (rest.startsWith('[')) {
      if (!rest.endsWith(']')) return { error: `line ${i + 1}: the list for "${key}" is not closed with ]` };
      const inner = rest.slice(1, -1).trim();
      values[key] = inner === '' ? [] : inner.split(',').map((s) => unquote(s.trim()));
      continue;
    }
    const quote = rest[0];
    if ((quote === '"' || quote === "'") && !(rest.length > 1 && rest.endsWith(quote))) {
      return { error: `line ${i + 1}: unterminated quoted value for "${key}"` };
    }
    values[key] = unquote(stripComment(rest));
  }
  return { values };
}

function stripComment(value: string): string {
  if (value.startsWith('"') || value.startsWith("'")) return value;
  return value.replace(/\s+#.*$/, '');
}

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return value.slice(1, -1).replace(/\\"/g, '"').replace(/\\n/g, '\n').replace(/\\\\/g, '\\');
  }
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1).replace(/''/g, "'");
  return value;
}

function asString(value: YamlValue | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}
