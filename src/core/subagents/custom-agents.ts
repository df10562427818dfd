import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { resolveOpendevHome } from '../config/opendev-home';
import { parseFrontmatter, type YamlValue } from '../frontmatter';
import { MAIN_AGENT_ONLY_TOOLS, SUBAGENT_MAX_ITERATIONS, normalizeTypeName, type SubagentSpec } from './specs';

/** Moved to core/frontmatter.ts (skills and prompt sections use it too); still exported here for existing callers. */
export { parseFrontmatter } from '../frontmatter';

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

function asString(value: YamlValue | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}
