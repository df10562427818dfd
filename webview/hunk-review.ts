import * as l10n from '@vscode/l10n';
import type { ChatEntryOf, HunkPreview } from '../src/shared/protocol';
import { diffView } from './diff-view';
import { button, h } from './dom';
import type { RenderContext } from './entries';

/**
 * An edit approval decided change by change in the chat card, as the diff editor's CodeLens
 * offers it: each hunk the extension listed gets Accept / Reject (pressed again: undecided), and
 * Submit sends the accepted hunks once every hunk is decided. The hunks are the extension's (it
 * computed them with the same function that applies the verdict); the card only shows them. The
 * verdicts given so far are the extension's too (`entry.verdicts`): a press here is sent to it
 * (`decideHunk`), and a change decided in the editor's CodeLens shows here the same way.
 */

type Verdict = 'accepted' | 'rejected';
type Approval = ChatEntryOf<'approval'>;

export function renderHunkChoices(entry: Approval, hunks: readonly HunkPreview[], ctx: RenderContext): HTMLElement {
  const verdicts = new Map<number, Verdict>((entry.verdicts ?? []).map((v) => [v.index, v.verdict]));
  const total = hunks.length;
  const progress = h('span', { class: 'hunk-progress', attrs: { role: 'status' } });
  const submit = button(l10n.t('Submit'), 'submit-hunks', () => {
    if (verdicts.size < total) return;
    const acceptedHunks = hunks.filter((p) => verdicts.get(p.index) === 'accepted').map((p) => p.index);
    ctx.post({ type: 'answerApproval', id: entry.id, decision: { action: 'partial', acceptedHunks } });
  }, { title: l10n.t('Apply the accepted changes and leave out the rejected ones') });
  const sync = () => {
    const accepted = [...verdicts.values()].filter((v) => v === 'accepted').length;
    const ready = verdicts.size === total;
    progress.textContent = ready
      ? total === 1
        ? l10n.t('Apply {0} of 1 change, reject {1}', accepted, total - accepted)
        : l10n.t('Apply {0} of {1} changes, reject {2}', accepted, total, total - accepted)
      : l10n.t('{0} of {1} changes decided', verdicts.size, total);
    submit.toggleAttribute('disabled', !ready);
  };
  const list = h('div', { class: 'hunk-list' });
  for (const hunk of hunks) {
    const section = hunkSection(hunk, total);
    const head = section.querySelector('.hunk-head')!;
    const choose = (verdict: Verdict) => {
      const next = verdicts.get(hunk.index) === verdict ? undefined : verdict;
      // Shown at once; the extension's answer (the card again, with its verdicts) confirms it.
      if (next) verdicts.set(hunk.index, next);
      else verdicts.delete(hunk.index);
      ctx.post({ type: 'decideHunk', id: entry.id, index: hunk.index, verdict: next ?? null });
      show();
      sync();
    };
    const n = hunk.index + 1;
    const accept = button(l10n.t('Accept'), 'accept-hunk', () => choose('accepted'), { secondary: true, title: l10n.t('Accept change {0}', n) });
    const reject = button(l10n.t('Reject'), 'reject-hunk', () => choose('rejected'), { secondary: true, title: l10n.t('Reject change {0}', n) });
    const show = () => {
      const verdict = verdicts.get(hunk.index);
      markVerdict(section, verdict);
      for (const [el, mine] of [[accept, 'accepted'], [reject, 'rejected']] as const) {
        el.setAttribute('aria-pressed', String(verdict === mine));
        el.toggleAttribute('secondary', verdict !== mine);
      }
    };
    head.append(h('span', { class: 'hunk-buttons' }, accept, reject));
    show();
    list.append(section);
  }
  sync();
  return h('div', { class: 'hunk-review' }, list, h('div', { class: 'hunk-submit' }, submit, progress));
}

/** A decided (or withdrawn) card's hunks, folded away, each marked with what became of it. */
export function renderDecidedHunks(entry: Approval, hunks: readonly HunkPreview[], ctx: RenderContext): HTMLElement {
  const list = h('div', { class: 'hunk-list' });
  for (const hunk of hunks) {
    const section = hunkSection(hunk, hunks.length);
    markVerdict(section, decided(entry, hunk.index));
    list.append(section);
  }
  const details = h('details', { class: 'hunk-details' }, h('summary', { text: hunks.length === 1 ? l10n.t('Show the change') : l10n.t('Show the {0} changes', hunks.length) }), list);
  details.open = ctx.isToggled(entry.id);
  details.addEventListener('toggle', () => ctx.setToggled(entry.id, details.open));
  return details;
}

function hunkSection(hunk: HunkPreview, total: number): HTMLElement {
  const n = hunk.index + 1;
  const size = [hunk.added && `+${hunk.added}`, hunk.removed && `−${hunk.removed}`].filter(Boolean).join(' ');
  const title = l10n.t('Change {0} of {1}', n, total);
  return h(
    'section',
    { class: 'hunk', attrs: { 'aria-label': `${title}, ${hunk.where}` }, data: { index: String(hunk.index) } },
    h(
      'div',
      { class: 'hunk-head' },
      h('span', { class: 'hunk-title', text: title }),
      h('span', { class: 'hunk-where', text: `${hunk.where} · ${size}` }),
      h('span', { class: 'hunk-verdict' }),
    ),
    diffView(hunk.lines, l10n.t('{0} (unified diff)', title), false),
  );
}

function markVerdict(section: HTMLElement, verdict: Verdict | undefined): void {
  if (verdict) section.dataset.verdict = verdict;
  else delete section.dataset.verdict;
  section.querySelector('.hunk-verdict')!.textContent = verdict === 'accepted' ? '✓ accepted' : verdict === 'rejected' ? '✗ rejected' : '';
}

/** What became of a hunk once the card was answered; undefined when it was withdrawn. */
function decided(entry: Approval, index: number): Verdict | undefined {
  const d = entry.state === 'answered' ? entry.decision : undefined;
  if (!d) return undefined;
  if (d.action === 'allow' || d.action === 'always') return 'accepted';
  if (d.action === 'partial') return d.acceptedHunks.includes(index) ? 'accepted' : 'rejected';
  return d.action === 'deny' ? 'rejected' : undefined;
}
