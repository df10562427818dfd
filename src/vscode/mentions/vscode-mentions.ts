import { rankPaths } from '../../core/mentions/fuzzy-path-match';
import { expandMentions, type MentionExpansion, type MentionSources } from '../../core/mentions/mention-expander';
import { workspaceMentionSources } from '../../core/mentions/workspace-mention-sources';
import { SPECIAL_MENTIONS, type SpecialMention } from '../../shared/mention-syntax';
import type { MentionCompletion } from '../../shared/protocol';
import type { MentionPort } from '../chat-input';
import { problemsText } from './problems-text';
import { WorkspaceFiles } from './workspace-files';

/** Completions shown for one `@query`. */
export const MAX_MENTION_COMPLETIONS = 20;

const SPECIAL_DETAILS: Record<SpecialMention, string> = {
  problems: 'Errors and warnings in the workspace',
  terminal: 'The last command in the OpenDev terminal and its output',
  git: 'The working tree diff (git diff)',
};

/** The last command of the OpenDev terminal, as `@terminal` attaches it. */
export interface TerminalOutputSource {
  lastCommandText(): string | undefined;
}

/**
 * `@` mentions in VS Code: completion over the workspace's files and folders (fuzzy, with the
 * project's excludes) and the special sources; expansion reads files and folders like the tools
 * do, the diagnostics from VS Code, the OpenDev terminal's last command, and the real git diff.
 */
export class VscodeMentions implements MentionPort {
  private readonly files = new WorkspaceFiles();

  constructor(
    private readonly root: string | undefined,
    private readonly terminal: TerminalOutputSource,
  ) {}

  async complete(query: string): Promise<MentionCompletion[]> {
    const q = query.toLowerCase();
    const specials: MentionCompletion[] = SPECIAL_MENTIONS.filter((s) => s.startsWith(q)).map((s) => ({ target: s, kind: s, detail: SPECIAL_DETAILS[s] }));
    if (!this.root) return specials;
    const paths = rankPaths(query, await this.files.candidates(query === ''), MAX_MENTION_COMPLETIONS - specials.length);
    return [...specials, ...paths.map((p) => ({ target: p.path, kind: p.kind }))];
  }

  expand(text: string): Promise<MentionExpansion> {
    return expandMentions(text, this.sources());
  }

  private sources(): MentionSources {
    const noFolder = async (): Promise<never> => {
      throw new Error('no folder is open');
    };
    const workspace: MentionSources = this.root
      ? workspaceMentionSources(this.root)
      : { kindOf: async () => undefined, readFile: noFolder, listFolder: noFolder, problems: noFolder, terminal: noFolder, gitDiff: noFolder };
    return {
      ...workspace,
      problems: async () => problemsText(this.root),
      terminal: async () => this.terminal.lastCommandText() ?? 'No command has run in the OpenDev terminal yet.',
    };
  }
}
