// "Write Commit Message with OpenDev": one call to the compact model with the diff, outside any
// session (no tools, no transcript). The host gathers the diff and puts the answer in its commit
// box; the wording the model reads is templates/editor/commit-message.md.
import { callModel } from '../llm/model-call';
import type { ResolvedRoleModel } from '../llm/role-resolver';
import type { AssistantMessage } from '../messages';
import { loadTemplate, loadTemplateSections, renderTemplate } from '../templates';
import { silentUI } from '../ui';

/** The subject line's length the template asks for. */
export const SUBJECT_MAX = 72;
/** A diff beyond this is cut (with a note): the subject needs the shape of the change, not every line. */
export const MAX_DIFF_CHARS = 60_000;
const REQUEST_TEMPLATE = 'editor/commit-request.md';

export interface CommitMessageRequest {
  /** `git diff` output: the staged changes, or all of them when nothing is staged. */
  diff: string;
  /** What the user already typed in the commit box, kept as a draft to follow. */
  draft?: string;
}

/** The diff as the model reads it: cut at a line boundary when too long, and saying so. */
export function diffForModel(diff: string, max = MAX_DIFF_CHARS): string {
  if (diff.length <= max) return diff;
  const cut = diff.lastIndexOf('\n', max);
  const kept = diff.slice(0, cut > 0 ? cut : max);
  return `${kept}\n${section('diff_cut', { COUNT: (diff.length - kept.length).toLocaleString('en-US') })}`;
}

function section(name: string, vars: Record<string, string>): string {
  const text = loadTemplateSections(REQUEST_TEMPLATE).get(name);
  if (text === undefined) throw new Error(`templates/${REQUEST_TEMPLATE} has no "${name}" section`);
  return renderTemplate(text, vars);
}

/** The answer as a commit message: a code fence or surrounding quotes the model added are dropped. */
export function cleanCommitMessage(answer: string): string {
  let text = answer.trim();
  const fenced = /^```[^\n]*\n([\s\S]*?)\n```$/.exec(text);
  if (fenced) text = fenced[1]!.trim();
  if (/^(["'`]).*\1$/s.test(text) && !text.slice(1, -1).includes(text[0]!)) text = text.slice(1, -1).trim();
  return text;
}

/**
 * A commit message for the diff. Throws when the template is missing or the provider fails (the
 * host says so); an empty answer is an empty string.
 */
export async function writeCommitMessage(model: ResolvedRoleModel, request: CommitMessageRequest, signal: AbortSignal): Promise<string> {
  const template = loadTemplate('editor/commit-message.md');
  if (!template) throw new Error('templates/editor/commit-message.md is missing');
  const draft = request.draft?.trim();
  const user = [...(draft ? [section('draft', { DRAFT: draft })] : []), section('diff', { DIFF: diffForModel(request.diff) })].join('\n\n');
  const reply: AssistantMessage = { role: 'assistant', content: '', toolCalls: [] };
  await callModel(
    reply,
    model,
    {
      messages: [
        { role: 'system', content: renderTemplate(template, { SUBJECT_MAX: String(SUBJECT_MAX) }) },
        { role: 'user', content: user },
      ],
      tools: [],
      purpose: 'commit',
    },
    { ui: silentUI, usage: { promptTokens: 0, cachedTokens: 0, outputTokens: 0 }, signal },
    { streamText: false },
  );
  return cleanCommitMessage(reply.content);
}
