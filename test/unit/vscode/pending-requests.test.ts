import * as assert from 'node:assert/strict';
import type { ChatEntryOf, ExtensionToWebview } from '../../../src/shared/protocol';
import { PendingRequests } from '../../../src/vscode/pending-requests';
import { Transcript } from '../../../src/vscode/transcript';
import { changeHunks } from '../../../src/core/tools/edit/change-hunks';

/** The request cards on their own: what a tool approval with a command or a diff looks like to the view. */
describe('PendingRequests (request cards)', () => {
  const setup = () => {
    const transcript = new Transcript();
    const sent: ExtensionToWebview[] = [];
    transcript.onMessage((m) => sent.push(m));
    return { transcript, requests: new PendingRequests(transcript), sent };
  };
  const runCommand = { kind: 'tool' as const, toolName: 'run_command', title: 'Run npm test', args: '{"command":"npm test"}', command: 'npm test' };

  it('shows a tool approval with its command and takes an edited command', async () => {
    const { transcript, requests, sent } = setup();
    const decision = requests.approval(runCommand, new AbortController().signal);
    const card = transcript.list()[0] as ChatEntryOf<'approval'>;
    assert.deepEqual(card, { kind: 'approval', id: card.id, request: runCommand, state: 'pending' });
    assert.deepEqual(sent[0], { type: 'upsert', entry: card });

    assert.deepEqual(requests.answer({ type: 'answerApproval', id: card.id, decision: { action: 'edit', command: 'npm test -- --grep math' } }), { ok: true });
    assert.deepEqual(await decision, { action: 'edit', command: 'npm test -- --grep math' });
    assert.deepEqual(transcript.list()[0], { ...card, state: 'answered', decision: { action: 'edit', command: 'npm test -- --grep math' } });
    assert.equal(requests.size, 0);
  });

  it('keeps the diff of an edit for the view; Always allow is passed on as such', async () => {
    const { transcript, requests } = setup();
    const diff = '--- a/math.ts\n+++ b/math.ts\n@@ -1 +1 @@\n-export const PI = 3.14;\n+export const PI = Math.PI;\n';
    const decision = requests.approval({ kind: 'tool', toolName: 'edit_file', title: 'Edit math.ts', args: '{}', diff }, new AbortController().signal);
    const card = transcript.list()[0] as ChatEntryOf<'approval'>;
    assert.equal(card.request.diff, diff);
    requests.answer({ type: 'answerApproval', id: card.id, decision: { action: 'always' } });
    assert.deepEqual(await decision, { action: 'always' });
  });

  it('an aborted signal withdraws the card: it turns cancelled and the request settles as denied', async () => {
    const { transcript, requests } = setup();
    const abort = new AbortController();
    const decision = requests.approval(runCommand, abort.signal);
    abort.abort();
    assert.deepEqual(await decision, { action: 'deny', feedback: 'cancelled by the user' });
    assert.equal((transcript.list()[0] as ChatEntryOf<'approval'>).state, 'cancelled');
    const id = transcript.list()[0]!.id;
    assert.equal(requests.answer({ type: 'answerApproval', id, decision: { action: 'allow' } }).ok, false);
  });

  it('cancelAll (New Chat) withdraws every open card', async () => {
    const { transcript, requests } = setup();
    const signal = new AbortController().signal;
    const approval = requests.approval(runCommand, signal);
    const plan = requests.plan({ path: '/w/p.md', content: '# Plan' }, signal);
    const questions = requests.questions([{ header: 'Db', question: 'Which?', options: [{ label: 'A', description: 'a' }], multiSelect: false }], signal);
    requests.cancelAll();
    assert.deepEqual(await approval, { action: 'deny', feedback: 'cancelled by the user' });
    assert.deepEqual(await plan, { action: 'modify', feedback: 'The user cancelled the review.' });
    assert.equal(await questions, undefined);
    assert.deepEqual(transcript.list().map((e) => 'state' in e && e.state), ['cancelled', 'cancelled', 'cancelled']);
  });
});

/** An edit approval shown in a second place too (the diff editor): either answer settles the one card. */
describe('PendingRequests with a companion (inline diff approval)', () => {
  const proposed = { path: '/w/math.ts', before: 'a\nb\nc\nd\n', after: 'A\nb\nc\nD\n', hunks: changeHunks('a\nb\nc\nd\n', 'A\nb\nc\nD\n') };
  const edit = { kind: 'tool' as const, toolName: 'edit_file', title: 'edit_file math.ts?', args: '{}', diff: '-a\n+A\n-d\n+D', proposed };
  const setup = () => {
    const transcript = new Transcript();
    const opened: Array<{ id: string; answer: (d: import('../../../src/core/ui').ApprovalDecision) => unknown; closed: boolean }> = [];
    const requests = new PendingRequests(transcript, {
      approvalOpened: (request, answer) => {
        const shown = { id: request.id, answer, closed: false };
        assert.deepEqual(request.proposed, proposed);
        opened.push(shown);
        return { dispose: () => (shown.closed = true) };
      },
    });
    return { transcript, requests, opened };
  };
  const settle = () => new Promise((r) => setImmediate(r));

  it('the card carries the diff and the hunk count, not the whole file; the editor answers it and then closes', async () => {
    const { transcript, requests, opened } = setup();
    const decision = requests.approval(edit, new AbortController().signal);
    const card = transcript.list()[0] as ChatEntryOf<'approval'>;
    assert.equal(card.request.hunks, 2);
    assert.deepEqual(
      card.request.hunkPreviews?.map((p) => [p.index, p.where, p.lines]),
      [
        [0, 'line 1', '-a\n+A\n b\n c'],
        [1, 'line 4', ' b\n c\n-d\n+D'],
      ],
      'the card lists the same hunks, each to decide on its own',
    );
    assert.equal('proposed' in card.request, false);
    assert.equal(opened.length, 1);
    assert.equal(opened[0]!.id, card.id);

    assert.deepEqual(opened[0]!.answer({ action: 'partial', acceptedHunks: [1, 1] }), { ok: true });
    assert.deepEqual(await decision, { action: 'partial', acceptedHunks: [1] });
    assert.deepEqual((transcript.list()[0] as ChatEntryOf<'approval'>).decision, { action: 'partial', acceptedHunks: [1] });
    await settle();
    assert.equal(opened[0]!.closed, true);
  });

  it('an answer from the card closes the editor side; a late answer from there is refused', async () => {
    const { transcript, requests, opened } = setup();
    const decision = requests.approval(edit, new AbortController().signal);
    const card = transcript.list()[0] as ChatEntryOf<'approval'>;
    requests.answer({ type: 'answerApproval', id: card.id, decision: { action: 'allow' } });
    assert.deepEqual(await decision, { action: 'allow' });
    await settle();
    assert.equal(opened[0]!.closed, true);
    assert.equal((opened[0]!.answer({ action: 'deny' }) as { ok: boolean }).ok, false);
  });

  it('Stop (abort) closes the editor side; hunk indices out of range or on a request without hunks are refused', async () => {
    const { transcript, requests, opened } = setup();
    const controller = new AbortController();
    const decision = requests.approval(edit, controller.signal);
    const card = transcript.list()[0] as ChatEntryOf<'approval'>;
    assert.equal(requests.answer({ type: 'answerApproval', id: card.id, decision: { action: 'partial', acceptedHunks: [2] } }).ok, false);
    controller.abort();
    assert.equal((await decision).action, 'deny');
    await settle();
    assert.equal(opened[0]!.closed, true);

    const command = requests.approval({ kind: 'tool', toolName: 'run_command', title: 'Run ls', args: '{}', command: 'ls' }, new AbortController().signal);
    const commandCard = transcript.list()[1] as ChatEntryOf<'approval'>;
    assert.equal(opened.length, 1, 'no proposal, no editor side');
    assert.equal(requests.answer({ type: 'answerApproval', id: commandCard.id, decision: { action: 'partial', acceptedHunks: [] } }).ok, false);
    requests.cancelAll();
    await command;
  });
});

/** The hunks decided so far are one state, shown by the card and the editor alike, wherever decided. */
describe('PendingRequests: hunk decisions shared by the card and the editor', () => {
  const proposed = { path: '/w/math.ts', before: 'a\nb\nc\nd\n', after: 'A\nb\nc\nD\n', hunks: changeHunks('a\nb\nc\nd\n', 'A\nb\nc\nD\n') };
  const edit = { kind: 'tool' as const, toolName: 'edit_file', title: 'edit_file math.ts?', args: '{}', diff: '-a\n+A\n-d\n+D', proposed };
  type Verdict = 'accepted' | 'rejected' | undefined;
  const setup = () => {
    const transcript = new Transcript();
    const editorGot: Array<[number, Verdict]> = [];
    let fromEditor: ((index: number, verdict: Verdict) => void) | undefined;
    const requests = new PendingRequests(transcript, {
      approvalOpened: (_request, _answer, hunkDecided) => {
        fromEditor = hunkDecided;
        return { dispose: () => undefined, setVerdict: (index, verdict) => editorGot.push([index, verdict]) };
      },
    });
    const card = () => transcript.list()[0] as ChatEntryOf<'approval'>;
    return { requests, card, editorGot, editor: (index: number, verdict: Verdict) => fromEditor!(index, verdict) };
  };

  it('a change decided in the card is on the card entry and reaches the editor; pressed again it is undecided on both', () => {
    const { requests, card, editorGot } = setup();
    void requests.approval(edit, new AbortController().signal);
    assert.equal(card().verdicts, undefined, '0 of 2 decided');
    assert.deepEqual(requests.decideHunk(card().id, 1, 'rejected'), { ok: true });
    assert.deepEqual(card().verdicts, [{ index: 1, verdict: 'rejected' }]);
    assert.deepEqual(requests.decideHunk(card().id, 1, undefined), { ok: true });
    assert.deepEqual(card().verdicts, []);
    assert.deepEqual(editorGot, [[1, 'rejected'], [1, undefined]]);
    assert.equal(card().state, 'pending', 'deciding hunks does not answer the card');
    requests.cancelAll();
  });

  it('a change decided in the editor shows on the card (and is not echoed back); Submit then answers with both', async () => {
    const { requests, card, editorGot, editor } = setup();
    const decision = requests.approval(edit, new AbortController().signal);
    editor(0, 'accepted');
    assert.deepEqual(card().verdicts, [{ index: 0, verdict: 'accepted' }], '1 of 2 decided, on the card too');
    assert.deepEqual(editorGot, []);
    requests.decideHunk(card().id, 1, 'rejected');
    assert.deepEqual(card().verdicts, [{ index: 0, verdict: 'accepted' }, { index: 1, verdict: 'rejected' }]);
    requests.answer({ type: 'answerApproval', id: card().id, decision: { action: 'partial', acceptedHunks: [0] } });
    assert.deepEqual(await decision, { action: 'partial', acceptedHunks: [0] });
    assert.equal(requests.decideHunk(card().id, 0, 'rejected').ok, false, 'answered: no more hunk decisions');
  });

  it('refuses a hunk the edit does not have, and a card without hunks', () => {
    const { requests, card } = setup();
    void requests.approval(edit, new AbortController().signal);
    assert.equal(requests.decideHunk(card().id, 2, 'accepted').ok, false);
    assert.equal(requests.decideHunk('e404', 0, 'accepted').ok, false);
    requests.cancelAll();
  });
});
