import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { resolveOpendevHome } from '../../config/opendev-home';
import { loadTemplateSections, renderTemplate } from '../../templates';

/** Per file: instructions are for conventions, not for filling the context window. */
export const PROJECT_INSTRUCTIONS_MAX_CHARS = 20_000;

/** The files read, in this order: the user's own rules first, then the project's (more specific). */
const PROJECT_FILES = ['OPENDEV.md', '.opendev/OPENDEV.md', 'AGENTS.md', 'CLAUDE.md'] as const;

export interface ProjectInstruction {
  /** How the prompt names it: workspace-relative for project files, the full path for the user's. */
  source: string;
  text: string;
  /** True when the file was longer than the cap and `text` is its beginning. */
  truncated: boolean;
}

export interface ProjectInstructionsOptions {
  workspaceRoot: string;
  /** OPENDEV_HOME; default from the environment. */
  home?: string;
  maxChars?: number;
  /** A file that exists but cannot be read; it is skipped. */
  onWarning?: (message: string) => void;
}

/** OPENDEV_HOME/OPENDEV.md, then OPENDEV.md, .opendev/OPENDEV.md, AGENTS.md and CLAUDE.md of the workspace. */
export function loadProjectInstructions(options: ProjectInstructionsOptions): ProjectInstruction[] {
  const max = options.maxChars ?? PROJECT_INSTRUCTIONS_MAX_CHARS;
  const home = options.home ?? resolveOpendevHome();
  const candidates = [
    { path: join(home, 'OPENDEV.md'), source: join(home, 'OPENDEV.md') },
    ...PROJECT_FILES.map((name) => ({ path: join(options.workspaceRoot, name), source: name })),
  ];
  const seen = new Set<string>();
  const found: ProjectInstruction[] = [];
  for (const { path, source } of candidates) {
    if (!existsSync(path)) continue;
    let text: string;
    try {
      // CLAUDE.md is often a link to AGENTS.md: one file, said once.
      const real = realpathSync(path);
      if (seen.has(real)) continue;
      seen.add(real);
      text = readFileSync(path, 'utf8').trim();
    } catch (err) {
      options.onWarning?.(`Instructions file ${path} skipped: ${(err as Error).message}`);
      continue;
    }
    if (text === '') continue;
    found.push(text.length > max ? { source, text: text.slice(0, max), truncated: true } : { source, text, truncated: false });
  }
  return found;
}

/** The instructions as a prompt part (templates/system/project-instructions.md); empty when there are none. */
export function projectInstructionsPrompt(instructions: readonly ProjectInstruction[], maxChars = PROJECT_INSTRUCTIONS_MAX_CHARS): string {
  if (instructions.length === 0) return '';
  const wrapper = loadTemplateSections('system/project-instructions.md');
  const blocks = instructions.map((i) => {
    const cut = i.truncated ? `\n${renderTemplate(wrapper.get('truncated') ?? '', { SOURCE: i.source, MAX_CHARS: maxChars.toLocaleString('en-US') })}` : '';
    return renderTemplate(wrapper.get('file') ?? '${CONTENT}', { SOURCE: i.source, CONTENT: i.text + cut });
  });
  return [wrapper.get('intro') ?? '', ...blocks].filter((p) => p !== '').join('\n\n');
}
