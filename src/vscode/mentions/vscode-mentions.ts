import { rankPaths } from '../../core/mentions/fuzzy-path-match';
import { expandMentions, type MentionExpansion, type MentionSources } from '../../core/mentions/mention-expander';
import { SPECIAL_MENTIONS, type SpecialMention } from '../../shared/mention-syntax';
import type { MentionCompletion } from '../../shared/protocol';
import type { MentionPort } from '../chat-input';
import { localFolders } from '../chat-folder';
import { folderMentionSources } from './folder-mention-sources';
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

  /** `chatRoot`: the chat's folder now (files of the workspace's other folders are named with their folder's name first). */
  constructor(
    private readonly chatRoot: () => string | undefined,
    private readonly terminal: TerminalOutputSource,
  ) {}

  private get root(): string | undefined {
    return this.chatRoot();
  }

  async complete(query: string): Promise<MentionCompletion[]> {
    const q = query.toLowerCase();
    const specials: MentionCompletion[] = SPECIAL_MENTIONS.filter((s) => s.startsWith(q)).map((s) => ({ target: s, kind: s, detail: SPECIAL_DETAILS[s] }));
    if (!this.root) return specials;
    const paths = rankPaths(query, await this.files.candidates(this.root, query === ''), MAX_MENTION_COMPLETIONS - specials.length);
    return [...specials, ...paths.map((p) => ({ target: p.path, kind: p.kind }))];
  }

  expand(text: string): Promise<MentionExpansion> {
    return expandMentions(text, this.sources());
  }

  private sources(): MentionSources {
    const noFolder = async (): Promise<never> => {
      throw new Error('no folder is open');
    };
    const root = this.root;
    const others = localFolders()
      .filter((f) => f.uri.fsPath !== root)
      .map((f) => ({ name: f.name, path: f.uri.fsPath }));
    const workspace: MentionSources = root
      ? folderMentionSources(root, others)
      : { kindOf: async () => undefined, readFile: noFolder, listFolder: noFolder, problems: noFolder, terminal: noFolder, gitDiff: noFolder };
    return {
      ...workspace,
      problems: async () => problemsText(root),
      terminal: async () => this.terminal.lastCommandText() ?? 'No command has run in the OpenDev terminal yet.',
    };
  }
}
