import * as assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { OpenDevApi } from '../../src/vscode/opendev-api';
import { allToolResults } from '../fixtures/fake-provider';
import { fakeProviderSuite, until, useSettings } from './support';

/**
 * Inline diff approval in the real editor: an edit that asks (semi-auto) opens in the diff editor
 * beside the user's editor without taking the focus, with Accept / Reject CodeLens per hunk and for
 * all of it; the editor and the chat card answer the same request; finished edits keep their diff.
 */
describe('inline diff approval', function () {
  this.timeout(120_000);
  const suite = fakeProviderSuite({ approvalLevel: 'semi-auto' });
  const { fake } = suite;
  let api: OpenDevApi;
  let folder: string;
  const FILE = 'diff-review.ts';
  const BEFORE = ['export const A = 1;', 'export const B = 2;', 'export const C = 3;', 'export const D = 4;', 'export const E = 5;', 'export const F = 6;', ''].join('\n');
  const AFTER = BEFORE.replace('A = 1;', 'A = 10;').replace('F = 6;', 'F = 60;\nexport const G = 70;');
  const ONLY_HUNK_1 = BEFORE.replace('A = 1;', 'A = 10;');
  const path = () => join(folder, FILE);
  const onDisk = () => readFileSync(path(), 'utf8');
  const proposalTabs = () =>
    vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'opendev-proposed');
  /** Our CodeLens on a document (opened first: the command only answers for a loaded document). */
  const ourLenses = async (uri: vscode.Uri) => {
    await vscode.workspace.openTextDocument(uri);
    return ((await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? []).filter((l) => l.command?.command.startsWith('opendev.'));
  };

  /** Scripts read_file, then an edit_file with two hunks (line 1; line 6 plus a new line 7), then a reply. */
  const scriptEdit = () =>
    fake.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { file_path: FILE } }] },
      { toolCalls: [{ name: 'edit_file', arguments: { file_path: FILE, old_content: BEFORE.trimEnd(), new_content: AFTER.trimEnd() } }] },
      { text: 'Done.' },
    );
  /** Sends the prompt and waits until the edit waits for approval in the diff editor. */
  const startEdit = async () => {
    scriptEdit();
    const turn = api.send('bump the constants');
    // The tab appears before the extension host hears of the diff's editors, and where the file shows decides its lenses.
    const shown = () => vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === api.pendingReviews()[0]?.proposal.toString());
    await until(() => api.pendingReviews().length === 1 && proposalTabs().length === 1 && shown(), 'the proposal in the diff editor');
    return { turn, review: api.pendingReviews()[0]! };
  };
  /** What the model read back as the edit_file result. */
  const editResult = () => {
    const last = fake.requests.at(-1)!;
    return allToolResults(last).at(-1)!.content;
  };

  before(() => {
    api = suite.api;
    folder = suite.folder;
  });
  after(async () => {
    rmSync(path(), { force: true });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  beforeEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    writeFileSync(path(), BEFORE);
  });

  it('opens the proposal beside the user’s editor without taking the focus; CodeLens per hunk; Accept All applies the edit', async () => {
    // The user is working in math.ts with the cursor on line 3.
    const mine = await vscode.window.showTextDocument(vscode.Uri.file(join(folder, 'math.ts')));
    mine.selection = new vscode.Selection(2, 4, 2, 4);
    const { turn, review } = await startEdit();

    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, join(folder, 'math.ts'), 'the active editor is still the user’s');
    assert.deepEqual(vscode.window.activeTextEditor?.selection.active, new vscode.Position(2, 4), 'the cursor did not move');
    const tab = proposalTabs()[0]!;
    assert.equal((tab.input as vscode.TabInputTextDiff).original.fsPath, path(), 'the left side is the real file');
    assert.notEqual(tab.group.viewColumn, mine.viewColumn, 'the diff opened in another column');
    assert.equal(review.hunks, 2);
    const proposal = await vscode.workspace.openTextDocument(review.proposal);
    assert.equal(proposal.getText(), AFTER, 'the right side holds the proposed content');
    assert.equal(onDisk(), BEFORE, 'nothing is written before the answer');

    // The diff editor shows CodeLens only with diffEditor.codeLens, which the extension turns on by default.
    assert.equal(vscode.workspace.getConfiguration('diffEditor').get('codeLens'), true);
    const lenses = await ourLenses(review.proposal);
    const commands = lenses.map((l) => [l.command!.command, l.command!.arguments]);
    assert.deepEqual(commands.filter(([c]) => c === 'opendev.acceptAllChanges' || c === 'opendev.rejectAllChanges'), [
      ['opendev.acceptAllChanges', [review.cardId]],
      ['opendev.rejectAllChanges', [review.cardId]],
    ]);
    assert.deepEqual(commands.filter(([c]) => c === 'opendev.review.acceptHunk' || c === 'opendev.review.rejectHunk'), [
      ['opendev.review.acceptHunk', [review.cardId, 0]],
      ['opendev.review.rejectHunk', [review.cardId, 0]],
      ['opendev.review.acceptHunk', [review.cardId, 1]],
      ['opendev.review.rejectHunk', [review.cardId, 1]],
    ]);
    const hunkLines = lenses.filter((l) => l.command!.command === 'opendev.review.acceptHunk').map((l) => l.range.start.line);
    assert.deepEqual(hunkLines, [0, 5], 'each hunk’s lenses sit on its first line');
    // As the diff's left side the file has none (no double row); its own editor gets them, at the hunks' original lines.
    assert.deepEqual(await ourLenses(vscode.Uri.file(path())), []);
    await vscode.window.showTextDocument(vscode.Uri.file(path()), { viewColumn: vscode.ViewColumn.Three, preserveFocus: true, preview: false });
    const fileLenses = await ourLenses(vscode.Uri.file(path()));
    assert.deepEqual(fileLenses.filter((l) => l.command!.command === 'opendev.review.rejectHunk').map((l) => l.range.start.line), [0, 5]);
    // …and marks: the lines the edit replaces, and a note where it adds lines.
    await until(() => api.pendingReviews()[0]?.marks !== undefined, 'the marks in the file’s editor');
    assert.deepEqual(api.pendingReviews()[0]!.marks, { removedLines: [0, 5], insertionLines: [0, 5] });

    const accept = lenses.find((l) => l.command!.command === 'opendev.acceptAllChanges')!.command!;
    await vscode.commands.executeCommand(accept.command, ...(accept.arguments ?? []));
    assert.equal((await turn)?.status, 'completed');
    assert.equal(onDisk(), AFTER);
    await until(() => proposalTabs().length === 0, 'the diff to close');
    assert.equal(api.pendingReviews().length, 0);
    assert.deepEqual(await ourLenses(vscode.Uri.file(path())), [], 'no lenses once answered');
    const card = api.transcript().find((e) => e.kind === 'approval');
    assert.equal(card?.kind === 'approval' && card.state, 'answered', 'the chat card shows the answer');
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, join(folder, 'math.ts'));
  });

  it('Reject All (the diff editor’s title button) leaves the file as it was and the model is told the edit was rejected', async () => {
    const { turn, review } = await startEdit();
    // An editor title button passes the editor's resource: here the proposal.
    await vscode.commands.executeCommand('opendev.rejectAllChanges', review.proposal);
    assert.equal((await turn)?.status, 'completed');
    assert.equal(onDisk(), BEFORE);
    assert.match(editResult(), /The user denied edit_file/);
    await until(() => proposalTabs().length === 0, 'the diff to close');
  });

  it('accepting hunk 1 and rejecting hunk 2 writes exactly hunk 1; the model hears hunk 2 was rejected, with its lines and content', async () => {
    const { turn, review } = await startEdit();
    await vscode.commands.executeCommand('opendev.review.acceptHunk', review.cardId, 0);
    assert.equal(api.pendingReviews().length, 1, 'one hunk decided: still waiting for the other');
    const decided = (await ourLenses(review.proposal)).filter((l) => l.command!.command === 'opendev.review.undoHunk');
    assert.deepEqual(decided.map((l) => l.command!.arguments), [[review.cardId, 0]], 'the decided hunk offers Undo instead of Accept / Reject');
    // A rejected hunk is no longer marked in the file's own editor.
    await vscode.window.showTextDocument(vscode.Uri.file(path()), { viewColumn: vscode.ViewColumn.Three, preserveFocus: true, preview: false });
    await vscode.commands.executeCommand('opendev.review.undoHunk', review.cardId, 0);
    await vscode.commands.executeCommand('opendev.review.rejectHunk', review.cardId, 0);
    await until(() => api.pendingReviews()[0]?.marks?.removedLines.join() === '5', 'hunk 1 unmarked');
    await vscode.commands.executeCommand('opendev.review.undoHunk', review.cardId, 0);
    await vscode.commands.executeCommand('opendev.review.acceptHunk', review.cardId, 0);
    await vscode.commands.executeCommand('opendev.review.rejectHunk', review.cardId, 1);

    assert.equal((await turn)?.status, 'completed');
    assert.equal(onDisk(), ONLY_HUNK_1);
    const told = editResult();
    assert.match(told, /1 of 2 hunks were applied \(hunk 1\)/);
    assert.match(told, /Rejected hunk 2 of 2: original line 6, which your edit would have replaced by proposed lines 6–7/);
    assert.match(told, /-export const F = 6;\n\+export const F = 60;\n\+export const G = 70;/);
    const card = api.transcript().find((e) => e.kind === 'approval');
    assert.deepEqual(card?.kind === 'approval' && card.decision, { action: 'partial', acceptedHunks: [0] });
  });

  it('the chat card and the CodeLens show the same decisions, whichever side decides; short lenses name the change in their tooltip', async () => {
    const { turn, review } = await startEdit();
    const card = () => api.transcript().find((e) => e.kind === 'approval' && e.id === review.cardId);
    const verdicts = () => {
      const c = card();
      return c?.kind === 'approval' ? (c.verdicts ?? []).map((v) => `${v.index}:${v.verdict}`).join() : 'no card';
    };
    // Every lens title on the proposal, the progress label (no command) included.
    const titles = async () => ((await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', review.proposal)) ?? []).map((l) => l.command?.title ?? '');

    // Short titles fit a narrow editor; which change they decide is in the tooltip.
    const first = await ourLenses(review.proposal);
    const reject1 = first.find((l) => l.command!.command === 'opendev.review.rejectHunk')!.command!;
    assert.equal(reject1.title, '✗ Reject 1');
    assert.match(reject1.tooltip ?? '', /change 1 of 2/);
    assert.ok(first.every((l) => l.command!.title.length <= 20), `short lenses: ${first.map((l) => l.command!.title).join(' | ')}`);

    // Decided with the lens: the card shows it.
    await vscode.commands.executeCommand('opendev.review.acceptHunk', review.cardId, 0);
    assert.equal(verdicts(), '0:accepted', 'the card has the lens’s decision');
    assert.ok((await titles()).includes('OpenDev · 1 of 2 decided'), (await titles()).join(' | '));

    // Decided in the card (as the view sends it): the lenses show it, and nothing is answered yet.
    api.fromView({ type: 'decideHunk', id: review.cardId, index: 1, verdict: 'rejected' });
    assert.equal(verdicts(), '0:accepted,1:rejected');
    assert.deepEqual(
      (await ourLenses(review.proposal)).filter((l) => l.command!.command === 'opendev.review.undoHunk').map((l) => l.command!.arguments),
      [
        [review.cardId, 0],
        [review.cardId, 1],
      ],
      'both changes show as decided in the editor',
    );
    assert.ok((await titles()).includes('✗ Rejected 2'), (await titles()).join(' | '));
    assert.equal(api.pendingReviews().length, 1, 'deciding in the card answers only with Submit');

    // Undecided again in the card: the lens offers Accept / Reject for it again.
    api.fromView({ type: 'decideHunk', id: review.cardId, index: 0, verdict: null });
    assert.equal(verdicts(), '1:rejected');
    assert.ok((await titles()).includes('✓ Accept 1'), (await titles()).join(' | '));

    // The last decision in the editor answers the edit with both sides' decisions.
    await vscode.commands.executeCommand('opendev.review.acceptHunk', review.cardId, 0);
    assert.equal((await turn)?.status, 'completed');
    assert.equal(onDisk(), ONLY_HUNK_1);
    const answered = card();
    assert.deepEqual(answered?.kind === 'approval' && answered.decision, { action: 'partial', acceptedHunks: [0] });
    await until(() => proposalTabs().length === 0, 'the diff to close');
  });

  it('an answer in the chat closes the diff and the lenses, and leaves the user’s own editor of the file open', async () => {
    const { turn, review } = await startEdit();
    // The user opens the real file themselves: it gets the lenses and must survive the answer.
    const own = await vscode.window.showTextDocument(vscode.Uri.file(path()), { viewColumn: vscode.ViewColumn.One, preview: false });
    assert.equal((await ourLenses(own.document.uri)).length > 0, true);
    assert.deepEqual(api.answer({ type: 'answerApproval', id: review.cardId, decision: { action: 'allow' } }), { ok: true });
    assert.equal((await turn)?.status, 'completed');
    assert.equal(onDisk(), AFTER);
    await until(() => proposalTabs().length === 0, 'the diff to close');
    assert.deepEqual(await ourLenses(own.document.uri), []);
    const stillOpen = vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.input instanceof vscode.TabInputText && t.input.uri.fsPath === path());
    assert.equal(stillOpen, true, 'the user’s editor of the file stays open');
  });

  it('New Chat withdraws a pending edit: the diff closes and the file is untouched', async () => {
    const { turn } = await startEdit();
    api.newChat();
    await turn;
    await until(() => proposalTabs().length === 0 && api.pendingReviews().length === 0, 'the diff to close');
    assert.equal(onDisk(), BEFORE);
    // From the palette with nothing waiting, Accept All says so and changes nothing.
    await vscode.commands.executeCommand('opendev.acceptAllChanges');
    assert.equal(onDisk(), BEFORE);
  });

  it('an auto-approved edit runs at once and its card offers the diff afterwards, opened without taking the focus', async () => {
    await useSettings({ approvalLevel: 'auto' });
    try {
      const mine = await vscode.window.showTextDocument(vscode.Uri.file(join(folder, 'math.ts')));
      scriptEdit();
      assert.equal((await api.send('bump the constants'))?.status, 'completed');
      assert.equal(onDisk(), AFTER);
      assert.equal(proposalTabs().length, 0, 'nothing to approve: no diff opened by itself');
      const card = api.transcript().find((e) => e.kind === 'tool' && e.name === 'edit_file');
      const diffId = card?.kind === 'tool' ? card.diffId : undefined;
      assert.ok(diffId, 'the edit card carries a diff to show');

      await vscode.commands.executeCommand('opendev.showEditDiff', diffId);
      await until(() => proposalTabs().length === 1, 'the before/after diff');
      const input = proposalTabs()[0]!.input as vscode.TabInputTextDiff;
      assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), BEFORE);
      assert.equal((await vscode.workspace.openTextDocument(input.modified)).getText(), AFTER);
      assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), mine.document.uri.toString(), 'the focus stayed');
    } finally {
      await useSettings({ approvalLevel: 'semi-auto' });
    }
  });
});
