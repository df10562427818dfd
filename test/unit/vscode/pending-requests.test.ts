import * as assert from 'node:assert/strict';
import type { ChatEntryOf, ExtensionToWebview } from '../../../src/shared/protocol';
import { PendingRequests } from '../../../src/vscode/pending-requests';
import { Transcript } from '../../../src/vscode/transcript';

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
