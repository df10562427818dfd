import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { resolveOpendevHome } from '../config/opendev-home';
import { parseAgentFile } from './agent-file';
import { normalizeTypeName, type SubagentSpec } from './specs';

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
