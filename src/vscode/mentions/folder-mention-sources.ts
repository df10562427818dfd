import { join } from 'node:path';
import type { MentionSources } from '../../core/mentions/mention-expander';
import { workspaceMentionSources } from '../../core/mentions/workspace-mention-sources';

/** A workspace folder as mentions see it: its name (the prefix of its paths in completion) and where it is. */
export interface MentionFolder {
  name: string;
  path: string;
}

/**
 * Mention sources over a multi-root workspace: a path is the chat folder's when it is there, else
 * `<folder name>/<path>` names a file or folder of another workspace folder (as completion offers
 * them). Those attach read-only context by absolute path, so the model knows where they are; the
 * chat folder's git diff is the one `@git` means.
 */
export function folderMentionSources(chatRoot: string, others: readonly MentionFolder[]): MentionSources {
  const chat = workspaceMentionSources(chatRoot);
  const route = async (path: string): Promise<{ sources: MentionSources; path: string; kind: 'file' | 'folder' } | undefined> => {
    const kind = await chat.kindOf(path);
    if (kind) return { sources: chat, path, kind };
    for (const other of others) {
      const rest = path === other.name ? '.' : path.startsWith(`${other.name}/`) ? path.slice(other.name.length + 1) : undefined;
      if (rest === undefined) continue;
      const sources = workspaceMentionSources(other.path);
      const found = await sources.kindOf(rest);
      if (found) return { sources, path: join(other.path, rest), kind: found };
    }
    return undefined;
  };
  const read = (pick: (s: MentionSources) => (path: string) => Promise<string>) => async (path: string) => {
    const target = await route(path);
    return target ? pick(target.sources)(target.path) : pick(chat)(path);
  };
  return {
    ...chat,
    kindOf: async (path) => (await route(path))?.kind,
    readFile: read((s) => s.readFile),
    listFolder: read((s) => s.listFolder),
  };
}
