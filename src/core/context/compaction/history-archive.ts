import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { mkdirPrivate, PRIVATE_FILE_MODE } from '../../config/private-files';
import type { Message } from '../../messages';
import { originalContent } from './observation-stages';
import { attachedImagesNote } from '../../images/image-texts';

/**
 * The archive a full compaction writes before it replaces the history: every message, in order,
 * as markdown in the session's scratch folder (`compaction-<n>-<timestamp>.md`), so the agent can
 * read an exact earlier output back with read_file instead of re-running a tool, and a person can
 * read what the agent did. Masked and pruned results are written with their original output when
 * this process still has it.
 */
export interface ArchiveInfo {
  trigger: 'auto' | 'manual';
  sessionId?: string;
  agentName?: string;
}

const NAME = /^compaction-(\d+)-/;
const MAX_NAME_TRIES = 20;

/** Writes the archive and returns its absolute path. The number continues the folder's compactions. */
export async function writeHistoryArchive(dir: string, messages: readonly Message[], info: ArchiveInfo, now = new Date()): Promise<string> {
  await mkdirPrivate(dir);
  const taken = (await readdir(dir)).map((f) => Number(NAME.exec(f)?.[1] ?? 0));
  let n = Math.max(0, ...taken) + 1;
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  for (let attempt = 0; attempt < MAX_NAME_TRIES; attempt++, n++) {
    const path = join(dir, `compaction-${n}-${stamp}.md`);
    // `wx`: a subagent compacting at the same moment takes the next number instead of overwriting.
    const handle = await open(path, 'wx', PRIVATE_FILE_MODE).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'EEXIST') return undefined;
      throw err;
    });
    if (!handle) continue;
    try {
      await handle.writeFile(renderArchive(messages, { ...info, number: n, writtenAt: now }), 'utf8');
    } finally {
      await handle.close();
    }
    return path;
  }
  throw new Error(`no free archive name in ${dir}`);
}

export function renderArchive(messages: readonly Message[], info: ArchiveInfo & { number: number; writtenAt: Date }): string {
  const who = [info.agentName ? `agent ${info.agentName}` : '', info.sessionId ? `session ${info.sessionId}` : ''].filter(Boolean).join(', ');
  const out: string[] = [
    `# Conversation archive (compaction ${info.number})`,
    '',
    `${messages.length} messages${who ? ` of ${who}` : ''}, archived ${info.writtenAt.toISOString()} by the ${info.trigger} compaction.`,
    'Everything below was in the conversation before it was compacted, in order.',
  ];
  messages.forEach((m, i) => {
    out.push('', `## [${i + 1}] ${heading(m)}`, '');
    if (m.role === 'tool') {
      if (m.summary) out.push(`Summary: ${m.summary}`, '');
      const original = originalContent(m);
      if (original !== m.content) out.push(`In the context this output had been reduced to: ${m.content}`, '');
      out.push(fenced(original));
      return;
    }
    if (m.content) out.push(fenced(m.content));
    if (m.role === 'user' && m.images?.length) out.push('', attachedImagesNote(m.images));
    if (m.role === 'assistant') {
      for (const call of m.toolCalls) out.push('', `Tool call \`${call.name}\` (${call.id}):`, '', fenced(call.arguments, 'json'));
    }
  });
  return `${out.join('\n')}\n`;
}

function heading(m: Message): string {
  if (m.role === 'tool') return `tool result: ${m.name} (${m.toolCallId})${m.isError ? ' — error' : ''}`;
  return m.role;
}

/** A fence longer than any backtick run inside, so the content comes back exactly as it was. */
function fenced(text: string, lang = ''): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text}\n${fence}`;
}
