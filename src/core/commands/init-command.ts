import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { loadTemplateSections, renderTemplate } from '../templates';
import type { CommandContext, SlashCommand } from './command-registry';

export const PROJECT_FILE = 'OPENDEV.md';

const FORCE = '--force';
const REWRITE = 'Rewrite it';
const KEEP = 'Keep it';

/**
 * `/init [--force] [what to stress]`: the main agent hands the analysis to the Project-Init
 * subagent, which writes OPENDEV.md with write_file. It runs as an ordinary turn, so the user sees
 * it (the subagent's card, the write's diff when the approval level asks), can stop it, and can
 * undo it (/undo: the subagent's write is part of the turn's step). An existing OPENDEV.md is
 * never replaced unasked: the front end asks first, and where nobody can answer (-p) only
 * `--force` replaces it.
 */
export const initCommand: SlashCommand = {
  name: 'init',
  summary: 'Analyse the project and write OPENDEV.md (asks before replacing one)',
  usage: '/init [--force] [focus]',
  async run(args, ctx) {
    if (ctx.agent.running) return { output: 'Wait for the agent to finish (or stop it) before /init.', error: 'usage' };
    if (ctx.agent.mode === 'plan') return { output: '/init writes OPENDEV.md, which plan mode does not allow. Switch to normal mode first (/mode normal).', error: 'usage' };
    const workingDir = ctx.workingDir ?? ctx.session?.meta.workingDir;
    if (!workingDir) return { output: '/init writes OPENDEV.md into the project folder: open a folder first.', error: 'unavailable' };
    const words = args.split(/\s+/).filter(Boolean);
    const force = words.includes(FORCE);
    const focus = words.filter((w) => w !== FORCE).join(' ');
    const path = join(workingDir, PROJECT_FILE);
    const existing = await stat(path).catch(() => undefined);
    if (existing && !existing.isFile()) return { output: `${path} exists and is not a file; /init leaves it alone.`, error: 'usage' };
    if (existing && !force) {
      const verdict = await askToReplace(ctx, existing.size);
      if (verdict !== 'replace') return { output: verdict === 'kept' ? `${PROJECT_FILE} was left as it is.` : `${PROJECT_FILE} already exists and was left as it is. Run /init --force to have it rewritten.` };
    }
    return { output: existing ? `Rewriting ${PROJECT_FILE} with the Project-Init subagent…` : `Writing ${PROJECT_FILE} with the Project-Init subagent…`, runPrompt: initPrompt(existing !== undefined, focus) };
  },
};

/** 'replace' only on the user's explicit yes; 'kept' when they said no or dismissed the question; 'nobody' when no one can be asked. */
async function askToReplace(ctx: CommandContext, bytes: number): Promise<'replace' | 'kept' | 'nobody'> {
  if (!ctx.askUser) return 'nobody';
  const answers = await ctx.askUser(
    [
      {
        header: PROJECT_FILE,
        question: `${PROJECT_FILE} already exists (${bytes.toLocaleString('en-US')} bytes). Should the Project-Init subagent rewrite it from a fresh analysis?`,
        options: [
          { label: REWRITE, description: 'It reads the current file, keeps what is still true and rewrites the rest; /undo puts the old one back.' },
          { label: KEEP, description: 'Nothing is changed.' },
        ],
        multiSelect: false,
      },
    ],
    new AbortController().signal,
  );
  return answers?.answers[0]?.selected.includes(REWRITE) ? 'replace' : 'kept';
}

function initPrompt(replace: boolean, focus: string): string {
  const sections = loadTemplateSections('system/init.md');
  const section = (name: string): string => sections.get(name)?.trim() ?? '';
  return renderTemplate(section('task'), {
    STATE: section(replace ? 'replace' : 'new'),
    NOTES: focus ? ` ${renderTemplate(section('notes'), { TEXT: focus })}` : '',
  });
}
