import * as l10n from '@vscode/l10n';
import type { ChatEntryOf } from '../src/shared/protocol';
import { diffView } from './diff-view';
import { renderDecidedHunks, renderHunkChoices } from './hunk-review';
import { basename, button, h, prettyJson } from './dom';
import type { RenderContext } from './entries';
import { renderMarkdown } from './markdown';

/**
 * The blocking requests as inline cards: approval, ask_user survey, plan review. A pending card
 * takes the user's answer and posts it; an answered or cancelled card says what happened. What the
 * user typed or picked in a pending card is kept as a draft, so hiding the view loses nothing.
 */

const OTHER = 'Other';

type State = ChatEntryOf<'approval'>['state'];

function card(state: State, title: string, icon: string): HTMLElement {
  return h(
    'article',
    { class: 'card', data: { state }, attrs: { 'aria-label': title } },
    h('header', { class: 'card-head' }, h('span', { class: 'card-icon', text: icon, attrs: { 'aria-hidden': 'true' } }), h('span', { text: title })),
  );
}

function outcome(text: string, tone: 'ok' | 'no' | 'muted'): HTMLElement {
  return h('p', { class: `card-outcome ${tone}`, text, attrs: { role: 'status' } });
}

/** A text input bound to a draft key. */
function draftInput(ctx: RenderContext, key: string, options: { multiline?: boolean; placeholder: string; label: string; initial?: string }): HTMLInputElement | HTMLTextAreaElement {
  const input = options.multiline ? h('textarea', { attrs: { rows: '3' } }) : h('input', { attrs: { type: 'text' } });
  input.placeholder = options.placeholder;
  input.setAttribute('aria-label', options.label);
  input.value = ctx.draft(key) ?? options.initial ?? '';
  input.addEventListener('input', () => ctx.setDraft(key, input.value));
  return input;
}

// ───────────────────────────── approval ─────────────────────────────

/**
 * The raw call behind an approval's words, as a tool card has it: the tool's name and the
 * arguments the model sent. Open by default only when nothing else shows what the call does.
 */
function rawCall(entry: ChatEntryOf<'approval'>): HTMLElement {
  const { request } = entry;
  const args = request.args.trim() && request.args.trim() !== '{}' ? request.args : undefined;
  const details = h(
    'details',
    { class: 'card-args' },
    h('summary', { text: l10n.t('Show the call') }),
    h('div', { class: 'tool-call' }, h('span', { class: 'tool-raw-label', text: `${l10n.t('Tool')} ` }), h('code', { class: 'tool-name', text: request.toolName })),
    args && h('pre', { text: prettyJson(args), attrs: { 'aria-label': l10n.t('Arguments') } }),
  );
  details.open = args !== undefined && request.command === undefined && !request.diff && entry.state === 'pending';
  return details;
}

export function renderApproval(entry: ChatEntryOf<'approval'>, ctx: RenderContext): HTMLElement {
  const { request } = entry;
  const repeated = request.kind === 'doom_loop';
  const host = request.kind === 'sandbox_host';
  // The header and title are words (the extension wrote the title: "Edit math.ts?"); the tool's name is in the raw call below.
  const el = card(entry.state, repeated ? l10n.t('Repeated action') : host ? l10n.t('Network host blocked') : l10n.t('Approval needed'), repeated ? '↻' : host ? '⛔' : '⚠');
  el.append(h('p', { class: 'card-title', text: request.title }));
  if (request.sandbox) {
    el.append(h('p', { class: `sandbox-note sandbox-${request.sandbox}`, text: request.sandbox === 'inside' ? l10n.t('Runs in the sandbox: writes only in the workspace, no secrets, allowed hosts only.') : l10n.t('Runs outside the sandbox, with your full access.') }));
  }

  let command: HTMLInputElement | HTMLTextAreaElement | undefined;
  if (request.command !== undefined) {
    if (entry.state === 'pending') {
      command = draftInput(ctx, `${entry.id}:command`, { placeholder: l10n.t('Command'), label: l10n.t('Command to run (you may edit it)'), initial: request.command });
      command.classList.add('command-input');
      el.append(h('label', { class: 'field-label', text: l10n.t('Command') }), command);
    } else {
      el.append(h('pre', { class: 'command-text', text: request.command }));
    }
  }
  // An edit's hunks are decided one by one in the card; without the list (one hunk, too many) its diff is shown whole.
  const previews = request.hunkPreviews;
  if (previews && entry.state === 'pending') el.append(renderHunkChoices(entry, previews, ctx));
  else if (previews) el.append(renderDecidedHunks(entry, previews, ctx));
  else if (request.diff) el.append(diffView(request.diff));
  el.append(rawCall(entry));

  if (entry.state === 'cancelled') {
    el.append(outcome(l10n.t('Cancelled: the request was withdrawn.'), 'muted'));
    return el;
  }
  if (entry.state === 'answered' && entry.decision) {
    const d = entry.decision;
    const text =
      d.action === 'allow'
        ? l10n.t('✓ Allowed')
        : d.action === 'always'
          ? l10n.t('✓ Always allowed')
          : d.action === 'edit'
            ? l10n.t('✓ Ran the edited command: {0}', d.command)
            : d.action === 'partial'
              ? partialOutcome(d.acceptedHunks, request.hunks ?? 0)
              : d.feedback ? l10n.t('✗ Denied: {0}', d.feedback) : l10n.t('✗ Denied');
    el.append(outcome(text, d.action === 'deny' || (d.action === 'partial' && d.acceptedHunks.length === 0) ? 'no' : 'ok'));
    return el;
  }

  // An edit is also shown in the diff editor, answerable there hunk by hunk; whichever answers first settles it.
  const reviewable = request.hunks !== undefined;
  const denyLabel = reviewable ? l10n.t('Reject All') : l10n.t('Deny');
  const feedback = draftInput(ctx, `${entry.id}:feedback`, { placeholder: l10n.t('Why not? (optional, sent with {0})', denyLabel), label: l10n.t('Feedback sent with {0}', denyLabel) });
  feedback.classList.add('feedback-input');
  const post = (decision: ChatEntryOf<'approval'>['decision'] & object) => ctx.post({ type: 'answerApproval', id: entry.id, decision });
  const allow = reviewable
    ? button(l10n.t('Accept All'), 'allow', () => post({ action: 'allow' }), { title: l10n.t('Apply every change of this edit') })
    : host
      ? button(l10n.t('Allow for this session'), 'allow', () => post({ action: 'allow' }), { title: l10n.t('Commands of this session may connect to {0}', request.host ?? l10n.t('this host')) })
      : button(l10n.t('Allow'), 'allow', () => post({ action: 'allow' }));
  const always = !repeated && button(l10n.t('Always allow'), 'always', () => post({ action: 'always' }), { secondary: true, title: host ? l10n.t('Save it in opendev.sandbox.network.allow') : l10n.t('Allow, and do not ask again for {0}', request.toolName) });
  const deny = button(host ? l10n.t('Keep blocked') : denyLabel, 'deny', () => post(feedback.value.trim() ? { action: 'deny', feedback: feedback.value.trim() } : { action: 'deny' }), {
    secondary: true,
    ...(reviewable ? { title: l10n.t('Apply none of it: the file stays as it is') } : {}),
  });
  const openDiff =
    reviewable &&
    button(l10n.t('Open diff'), 'open-diff', () => ctx.post({ type: 'showDiff', id: entry.id }), {
      secondary: true,
      title: l10n.t('Show the proposal in the diff editor, where each change can be accepted or rejected'),
    });
  const buttons = h('div', { class: 'card-buttons' }, allow, always, deny, openDiff);
  if (command) {
    // Once the command is edited, the card offers to run the edited one (or to undo the edit).
    const input = command;
    const original = request.command!;
    const runEdited = button(l10n.t('Run edited'), 'edit', () => post({ action: 'edit', command: input.value.trim() }), { title: l10n.t('Run the command as you edited it') });
    const undo = button(l10n.t('Undo edit'), 'undo-edit', () => {
      input.value = original;
      ctx.setDraft(`${entry.id}:command`, undefined);
      sync();
    }, { secondary: true });
    const sync = () => {
      const edited = input.value.trim() !== '' && input.value.trim() !== original.trim();
      runEdited.hidden = !edited;
      undo.hidden = !edited;
      allow.hidden = edited;
      if (always) always.hidden = edited;
    };
    input.addEventListener('input', sync);
    buttons.prepend(runEdited);
    buttons.append(undo);
    sync();
  }
  el.append(buttons, feedback);
  return el;
}

/** "✓ Applied changes 1, 3 of 3; rejected 2" */
function partialOutcome(accepted: readonly number[], total: number): string {
  if (accepted.length === 0) return l10n.t('✗ Rejected every change');
  const rejected = Array.from({ length: total }, (_, i) => i).filter((i) => !accepted.includes(i));
  const list = (xs: readonly number[]) => xs.map((i) => i + 1).join(', ');
  const applied = accepted.length === 1 ? l10n.t('✓ Applied change {0} of {1}', list(accepted), total) : l10n.t('✓ Applied changes {0} of {1}', list(accepted), total);
  return rejected.length ? l10n.t('{0}; rejected {1}', applied, list(rejected)) : applied;
}

// ───────────────────────────── ask_user ─────────────────────────────

export function renderQuestion(entry: ChatEntryOf<'question'>, ctx: RenderContext): HTMLElement {
  const count = entry.questions.length;
  const el = card(entry.state, count === 1 ? l10n.t('OpenDev has a question') : l10n.t('OpenDev has {0} questions', count), '?');

  if (entry.state !== 'pending') {
    const list = h('dl', { class: 'answers' });
    entry.questions.forEach((q, i) => {
      const a = entry.answers?.answers[i];
      const chosen = a ? [...a.selected.filter((s) => s !== OTHER), ...(a.other ? [`“${a.other}”`] : [])] : [];
      list.append(h('dt', {}, h('span', { class: 'chip', text: q.header }), ` ${q.question}`), h('dd', { text: chosen.length > 0 ? chosen.join(', ') : '—' }));
    });
    el.append(list);
    if (entry.state === 'cancelled') el.append(outcome(l10n.t('Cancelled: the questions were withdrawn.'), 'muted'));
    else el.append(entry.answers ? outcome(l10n.t('✓ Answered'), 'ok') : outcome(l10n.t('Skipped: OpenDev goes on with its own judgement.'), 'muted'));
    return el;
  }

  const readers: Array<() => { header: string; selected: string[]; other?: string }> = [];
  entry.questions.forEach((q, qi) => {
    const name = `${entry.id}-q${qi}`;
    const key = `${entry.id}:q${qi}`;
    const picked = new Set<string>(JSON.parse(ctx.draft(key) ?? '[]') as string[]);
    const fieldset = h(
      'fieldset',
      { class: 'question' },
      h('legend', {}, h('span', { class: 'chip', text: q.header }), h('span', { class: 'question-text', text: q.question })),
    );
    if (q.multiSelect) fieldset.append(h('p', { class: 'hint', text: l10n.t('Choose any that apply.') }));
    const options = q.options.some((o) => o.label === OTHER) ? q.options : [...q.options, { label: OTHER, description: l10n.t('Type your own answer.') }];
    const inputs: HTMLInputElement[] = [];
    let otherText: HTMLInputElement | undefined;
    const save = () => ctx.setDraft(key, JSON.stringify(inputs.filter((i) => i.checked).map((i) => i.value)));
    for (const option of options) {
      const input = h('input', { attrs: { type: q.multiSelect ? 'checkbox' : 'radio', name, value: option.label } });
      input.checked = picked.has(option.label);
      input.addEventListener('change', save);
      inputs.push(input);
      const label = h(
        'label',
        { class: 'option' },
        input,
        h('span', { class: 'option-text' }, h('span', { class: 'option-label', text: option.label }), option.description && h('span', { class: 'option-description', text: option.description })),
      );
      fieldset.append(label);
      if (option.label === OTHER) {
        otherText = draftInput(ctx, `${key}:other`, { placeholder: l10n.t('Your answer'), label: l10n.t('Your own answer to: {0}', q.question) }) as HTMLInputElement;
        otherText.classList.add('other-input');
        // Typing an answer picks "Other".
        otherText.addEventListener('input', () => {
          if (otherText!.value.trim() && !input.checked) {
            input.checked = true;
            save();
          }
        });
        fieldset.append(otherText);
      }
    }
    fieldset.append(h('p', { class: 'field-error', attrs: { role: 'alert' } }));
    el.append(fieldset);
    readers.push(() => {
      const selected = inputs.filter((i) => i.checked).map((i) => i.value);
      const other = otherText?.value.trim();
      return selected.includes(OTHER) ? { header: q.header, selected, other } : { header: q.header, selected };
    });
  });

  const submit = () => {
    const answers = readers.map((read) => read());
    // "Other" needs its text: say so next to the question instead of sending an answer the extension would refuse.
    let valid = true;
    el.querySelectorAll<HTMLElement>('fieldset.question').forEach((fs, i) => {
      const error = fs.querySelector<HTMLElement>('.field-error')!;
      const a = answers[i]!;
      const missing = a.selected.includes(OTHER) && !a.other;
      error.textContent = missing ? l10n.t('Type your answer, or pick another option.') : '';
      if (missing) valid = false;
    });
    if (valid) ctx.post({ type: 'answerQuestions', id: entry.id, answers: { answers } });
  };
  el.append(
    h(
      'div',
      { class: 'card-buttons' },
      button(l10n.t('Submit'), 'submit', submit),
      button(l10n.t('Skip'), 'skip', () => ctx.post({ type: 'answerQuestions', id: entry.id, answers: null }), { secondary: true, title: l10n.t('Skip: OpenDev decides on its own') }),
    ),
  );
  return el;
}

// ───────────────────────────── plan review ─────────────────────────────

export function renderPlan(entry: ChatEntryOf<'plan'>, ctx: RenderContext): HTMLElement {
  const el = card(entry.state, l10n.t('Plan ready for review · {0}', basename(entry.path)), '☰');
  const body = h('div', { class: 'plan-body' });
  renderMarkdown(body, entry.content);
  if (entry.state === 'pending') {
    el.append(h('p', { class: 'plan-path', text: entry.path, attrs: { title: entry.path } }), body);
  } else {
    // Once decided, the plan folds away; it stays one click from view.
    const details = h('details', { class: 'plan-details' }, h('summary', { text: l10n.t('Show the plan') }), body);
    details.open = ctx.isToggled(entry.id);
    details.addEventListener('toggle', () => ctx.setToggled(entry.id, details.open));
    el.append(details);
  }

  if (entry.state === 'cancelled') {
    el.append(outcome(l10n.t('Cancelled: the review was withdrawn.'), 'muted'));
    return el;
  }
  if (entry.state === 'answered' && entry.decision) {
    const d = entry.decision;
    el.append(
      d.action === 'modify'
        ? outcome(l10n.t('✎ Changes requested: {0}', d.feedback), 'no')
        : outcome(d.action === 'approve_auto' ? l10n.t('✓ Approved; edits run without asking') : l10n.t('✓ Approved; each edit is shown for approval'), 'ok'),
    );
    return el;
  }

  const feedbackKey = `${entry.id}:feedback`;
  const feedback = draftInput(ctx, feedbackKey, { multiline: true, placeholder: l10n.t('What should change in the plan?'), label: l10n.t('Requested changes') });
  feedback.classList.add('feedback-input');
  const sendFeedback = button(l10n.t('Send feedback'), 'send-feedback', () => {
    if (feedback.value.trim()) ctx.post({ type: 'answerPlan', id: entry.id, decision: { action: 'modify', feedback: feedback.value.trim() } });
    else feedback.focus();
  });
  const cancelFeedback = button(l10n.t('Cancel'), 'cancel-feedback', () => setEditing(false), { secondary: true });
  const changes = h('div', { class: 'plan-feedback' }, feedback, h('div', { class: 'card-buttons' }, sendFeedback, cancelFeedback));
  const decide = h(
    'div',
    { class: 'card-buttons' },
    button(l10n.t('Approve & auto-approve edits'), 'approve_auto', () => ctx.post({ type: 'answerPlan', id: entry.id, decision: { action: 'approve_auto' } }), {
      title: l10n.t('Approve the plan; its edits run without asking'),
    }),
    button(l10n.t('Approve'), 'approve', () => ctx.post({ type: 'answerPlan', id: entry.id, decision: { action: 'approve' } }), {
      secondary: true,
      title: l10n.t('Approve the plan; each edit is still shown for approval'),
    }),
    button(l10n.t('Request changes'), 'modify', () => setEditing(true), { secondary: true }),
  );
  const setEditing = (on: boolean) => {
    changes.hidden = !on;
    ctx.setDraft(`${entry.id}:editing`, on ? '1' : undefined);
    if (on) feedback.focus();
  };
  changes.hidden = ctx.draft(`${entry.id}:editing`) !== '1';
  el.append(decide, changes);
  return el;
}
