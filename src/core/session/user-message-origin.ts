// Which user-role messages of a saved conversation the user actually typed. A message says so itself
// (`origin`, set where the harness makes it). Sessions saved before messages carried it are read by
// the templates their notes were rendered from, so a resumed chat still shows the user's words and
// not the harness's.
import { getReminder } from '../context/reminders';
import { loadTemplate, loadTemplateSections } from '../templates';
import { withoutAttachedContext } from '../mentions/attached-context';
import { escapeRegex } from '../escape-regex';
import type { UserMessage, UserMessageOrigin } from '../messages';

export type { UserMessageOrigin };

/** Who wrote a saved user message: as it says, or, for a session saved before messages said, as its text reads. */
export function originOf(message: Pick<UserMessage, 'content' | 'origin'>): UserMessageOrigin {
  return message.origin ?? userMessageOrigin(message.content);
}

interface TemplatePattern {
  origin: 'followup' | 'compaction' | 'undo' | 'note';
  /** The text before the first variable and after the last: cheap checks before the regex. */
  head: string;
  tail: string;
  literals: string[];
  regex: RegExp;
}

/** Longer messages are prompts (pasted text): no template renders that much besides a summary's. */
const MAX_MATCHED_CHARS = 400_000;

let patterns: TemplatePattern[] | undefined;

/** Who wrote a user message saved without its origin (older sessions): recognised by the templates it was rendered from. */
export function userMessageOrigin(content: string): UserMessageOrigin {
  if (content.length <= MAX_MATCHED_CHARS) {
    for (const p of (patterns ??= buildPatterns())) {
      if (!content.startsWith(p.head) || !content.endsWith(p.tail) || p.literals.some((l) => !content.includes(l))) continue;
      const match = p.regex.exec(content);
      if (!match) continue;
      if (p.origin === 'followup') return { kind: 'followup', text: match.groups?.MESSAGE ?? '' };
      if (p.origin === 'undo') return { kind: 'undo', steps: match.groups?.STEPS ?? '' };
      return { kind: p.origin };
    }
  }
  return { kind: 'prompt', text: typedText(withoutModeNote(content)) };
}

/** The user's words without what the chat attached; as saved when the templates cannot be read (saving must never fail on this). */
function typedText(content: string): string {
  try {
    return withoutAttachedContext(content);
  } catch {
    return content;
  }
}

/** The agent appends the plan-mode reminder (or the note that plan mode ended) to the prompt it was given. */
function withoutModeNote(content: string): string {
  for (const note of (modeNotes ??= loadModeNotes())) {
    if (content.endsWith(`\n\n${note}`)) return content.slice(0, -(note.length + 2));
  }
  return content;
}

let modeNotes: string[] | undefined;

function loadModeNotes(): string[] {
  try {
    return ['plan_mode', 'plan_mode_exited'].map((name) => getReminder(name)).filter((n): n is string => !!n);
  } catch {
    return []; // no templates folder: every user message reads as typed (saving must never fail on this)
  }
}

function buildPatterns(): TemplatePattern[] {
  try {
    return compileTemplates();
  } catch {
    return [];
  }
}

function compileTemplates(): TemplatePattern[] {
  const out: TemplatePattern[] = [];
  const add = (origin: TemplatePattern['origin'], template: string | undefined) => {
    if (template?.trim()) out.push(compile(origin, template));
  };
  add('compaction', loadTemplateSections('compaction/full-compaction.md').get('summary_message'));
  add('undo', loadTemplate('undo/undone.md'));
  for (const [name, text] of loadTemplateSections('reminders.md')) add(name === 'injected_followup' ? 'followup' : 'note', text);
  // Templates that start with a variable last: their literal prefix is empty, so they test more messages.
  return out.sort((a, b) => Number(a.head === '') - Number(b.head === ''));
}

/** A template → an anchored regex; each `${NAME}` matches any text, the first of each name as a named group. */
function compile(origin: TemplatePattern['origin'], template: string): TemplatePattern {
  const pieces = template.split(/\$\{([A-Za-z0-9_.]+)\}/);
  const literals = pieces.filter((_, i) => i % 2 === 0);
  const seen = new Set<string>();
  let source = '';
  pieces.forEach((piece, i) => {
    if (i % 2 === 0) {
      source += escapeRegex(piece);
      return;
    }
    const name = piece.replace(/\W/g, '_');
    source += seen.has(name) ? '[\\s\\S]*?' : `(?<${name}>[\\s\\S]*?)`;
    seen.add(name);
  });
  return {
    origin,
    head: literals[0] ?? '',
    tail: literals.length > 1 ? literals[literals.length - 1]! : '',
    literals: literals.filter((l) => l.length > 0),
    regex: new RegExp(`^${source}$`),
  };
}
