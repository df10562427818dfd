import { mentionPath, parseMentions, type SpecialMention } from '../../shared/mention-syntax';
import { loadTemplateSections, renderTemplate } from '../templates';

/** Where the content of each kind of mention comes from (the host provides what it knows). */
export interface MentionSources {
  /** A workspace-relative path: a file, a folder, or undefined when there is none (or it is outside the workspace). */
  kindOf(path: string): Promise<'file' | 'folder' | undefined>;
  /** Each returns text already capped; a thrown error becomes an "could not attach" item. */
  readFile(path: string): Promise<string>;
  listFolder(path: string): Promise<string>;
  problems(): Promise<string>;
  terminal(): Promise<string>;
  gitDiff(): Promise<string>;
}

export type MentionKind = 'file' | 'folder' | SpecialMention;

export interface ExpandedMention {
  /** The path or special name as the user wrote it. */
  target: string;
  kind: MentionKind;
  /** False when it resolved but could not be read (the model is told why). */
  ok: boolean;
}

export interface MentionExpansion {
  mentions: ExpandedMention[];
  /** The block the model reads after the user's text; undefined without mentions. */
  context?: string;
}

/** The whole block's cap: several large files must not flood the context. */
export const MAX_MENTION_CONTEXT_CHARS = 120_000;

const FILE = 'chat/mentions.md';

/**
 * Resolves the mentions in `text` (each target once; a path that is not in the workspace is plain
 * text, not a mention) and renders what they refer to as one delimited block for the model.
 */
export async function expandMentions(text: string, sources: MentionSources, maxChars = MAX_MENTION_CONTEXT_CHARS): Promise<MentionExpansion> {
  const seen = new Set<string>();
  const mentions: ExpandedMention[] = [];
  const items: string[] = [];
  const omitted: string[] = [];
  let used = 0;
  for (const parsed of parseMentions(text)) {
    const target = parsed.special ?? mentionPath(parsed.target);
    if (seen.has(target)) continue;
    seen.add(target);
    const kind: MentionKind | undefined = parsed.special ?? (await sources.kindOf(target).catch(() => undefined));
    if (!kind) continue;
    let item: string;
    let ok = true;
    try {
      item = render(kind, { PATH: target, CONTENT: (await read(kind, target, sources)).trimEnd() });
    } catch (err) {
      ok = false;
      item = render('error', { TARGET: target, REASON: (err as Error).message });
    }
    mentions.push({ target, kind, ok });
    if (used + item.length > maxChars) {
      omitted.push(kind === 'file' || kind === 'folder' ? target : `@${target}`);
      continue;
    }
    used += item.length;
    items.push(item);
  }
  if (omitted.length > 0) items.push(render('omitted', { TARGETS: omitted.join(', '), LIMIT: maxChars.toLocaleString('en-US') }));
  if (mentions.length === 0) return { mentions };
  return { mentions, context: render('context', { ITEMS: items.join('\n\n') }) };
}

function read(kind: MentionKind, target: string, sources: MentionSources): Promise<string> {
  switch (kind) {
    case 'file':
      return sources.readFile(target);
    case 'folder':
      return sources.listFolder(target);
    case 'problems':
      return sources.problems();
    case 'terminal':
      return sources.terminal();
    case 'git':
      return sources.gitDiff();
  }
}

function render(section: MentionKind | 'context' | 'error' | 'omitted', vars: Record<string, string>): string {
  const template = loadTemplateSections(FILE).get(section);
  if (!template) throw new Error(`templates/${FILE} has no "${section}" section`);
  return renderTemplate(template, vars);
}
