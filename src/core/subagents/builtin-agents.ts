// The built-in subagent types (paper §2.2.7, appendix G), defined like custom agents in
// templates/subagents/<file>.md: what the model reads about them and their tools live there.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { templatesDir } from '../templates';
import { parseAgentFile } from './agent-file';
import type { SubagentSpec } from './specs';

/** Appendix G's eight types, in its order (templates/subagents/generic.md is the fallback prompt, not a type). */
const BUILTIN_FILES = ['code-explorer', 'planner', 'pr-reviewer', 'security-reviewer', 'web-clone', 'web-generator', 'project-init', 'ask-user'];

function loadBuiltins(): SubagentSpec[] {
  const warnings: string[] = [];
  const specs = BUILTIN_FILES.map((name) => {
    const file = join(templatesDir(), 'subagents', `${name}.md`);
    return parseAgentFile(readFileSync(file, 'utf8'), file, 'builtin', warnings);
  });
  // A shipped template that does not parse is a packaging defect, not a user's mistake.
  if (warnings.length > 0) throw new Error(`Built-in subagent templates are invalid:\n${warnings.join('\n')}`);
  return specs as SubagentSpec[];
}

export const BUILTIN_SUBAGENTS: readonly SubagentSpec[] = loadBuiltins();
