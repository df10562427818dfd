import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { chatSuite, type Workbench } from '../host';
import { isActionCall, scenarioOf } from '../scenarios';
import { FakeProvider, type RecordedRequest, type ScriptedTurn } from '../../fixtures/fake-provider';

/**
 * The approval card's other answers, clicked like a user at the default approval level (semi-auto:
 * commands that change something ask): "Always allow" (remembered in the user's permissions file,
 * so the same command runs unasked next time), "Deny" with a reason, "Edit command" then "Run
 * edited", and the plan review's "Approve & auto-approve edits". The fake model scripts each
 * scenario from the conversation it is sent, and ends it by quoting the last tool result.
 */

const PLAN_PATH = '.opendev/plans/pi.md';
const PLAN = [
  '# Use Math.PI',
  '## Goal\nPI from the standard library.',
  '## Context\nmath.ts defines PI as a literal.',
  '## Files to modify\n- math.ts',
  '## Files to create\nNone',
  '## Implementation steps\n1. Replace the literal in math.ts with `Math.PI`',
  '## Verification\nmath.ts exports `PI = Math.PI`.',
  '## Risks\nNone',
].join('\n\n');
const ALWAYS = 'mkdir -p always-dir && touch always-dir/stamp';
const KEYS = ['make the stamp', 'stamp again', 'copy math', 'copy it now', 'carry out the PI plan'];

/** "Result: …": the first line of the last tool result, so the chat shows what the model was told. */
const quoteResult = (results: string[]): ScriptedTurn => ({ text: `Result: ${(results.at(-1) ?? '').split('\n')[0]}` });

function respond(req: RecordedRequest): ScriptedTurn {
  if (!isActionCall(req)) return { text: 'Noted.' };
  const { key, calls, results } = scenarioOf(req, KEYS);
  const run = (command: string): ScriptedTurn => (calls.length === 0 ? { toolCalls: [{ name: 'run_command', arguments: { command } }] } : quoteResult(results));
  switch (key) {
    case 'make the stamp':
    case 'stamp again':
      return run(ALWAYS);
    case 'copy math':
      return run('cp math.ts denied-copy.ts');
    case 'copy it now':
      return run('cp math.ts math-copy.ts');
    case 'carry out the PI plan':
      if (calls.length === 0) return { toolCalls: [{ name: 'present_plan', arguments: { plan_file_path: PLAN_PATH } }] };
      if (calls.length === 1) return { toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }] };
      if (calls.length === 2) return { toolCalls: [{ name: 'edit_file', arguments: { file_path: 'math.ts', old_content: 'export const PI = 3.14159;', new_content: 'export const PI = Math.PI;' } }] };
      return quoteResult(results);
  }
  return { text: 'echo' };
}

describe('chat approval card: always, deny, edit command, approve with auto-edits (end to end)', function () {
  this.timeout(180_000);
  const fake = new FakeProvider({ responder: respond });
  // The OpenDev home of the run, which the extension host inherits: "Always allow" writes the
  // user's permissions file there. The suite takes its rules out again for the next suite.
  const home = process.env.OPENDEV_HOME ?? assert.fail('OPENDEV_HOME is not set: run the e2e tests through test/run.mjs');
  const permissions = join(home, 'permissions.json');
  let wb: Workbench;
  let chat: Frame;
  const suite = chatSuite(fake, {
    shared: true,
    apiKey: 'sk-e2e-approvals',
    prepare: (wb) => {
      mkdirSync(join(wb.workspace, '.opendev', 'plans'), { recursive: true });
      writeFileSync(join(wb.workspace, PLAN_PATH), PLAN);
    },
  });
  before(() => {
    ({ wb, chat } = suite);
  });
  after(() => rmSync(permissions, { force: true }));

  const input = () => chat.locator('vscode-textarea[aria-label="Ask OpenDev"] textarea');
  const pending = () => chat.locator('.entry.approval[data-state="pending"]');
  const file = (name: string) => join(wb.workspace, name);
  async function ask(text: string): Promise<void> {
    await input().fill(text);
    await input().press('Enter');
  }
  async function idle(): Promise<void> {
    await chat.locator('#send').waitFor({ state: 'visible' });
  }
  /** The answer that quotes the tool result of the scenario asked last. */
  async function answer(nth: number): Promise<string> {
    const el = chat.locator('.entry.assistant', { hasText: 'Result:' }).nth(nth);
    await el.waitFor();
    await idle();
    return (await el.textContent()) ?? '';
  }
  /** The pending approval card, and the same card once it is answered (found by its entry id). */
  async function pendingCard(): Promise<{ card: ReturnType<Frame['locator']>; answered: ReturnType<Frame['locator']> }> {
    const card = pending();
    await card.waitFor();
    const id = await card.getAttribute('data-id');
    return { card, answered: chat.locator(`.entry.approval[data-id="${id}"][data-state="answered"]`) };
  }
  /** The tool result the model was sent last. */
  const lastResult = () => scenarioOf(fake.requests.at(-1)!, KEYS).results.at(-1) ?? '';

  it('Always allow runs the command and saves a rule in the user permissions file; the same command then runs without a card', async () => {
    await ask('make the stamp');
    const { card, answered } = await pendingCard();
    assert.match((await card.textContent()) ?? '', /Run mkdir -p always-dir && touch always-dir\/stamp\?/);
    await wb.screenshot('approval-command-pending');
    await card.locator('vscode-button[data-action="always"]').click();
    await answered.waitFor();
    assert.match((await answered.textContent()) ?? '', /✓ Always allowed/);
    await answer(0);
    assert.ok(existsSync(file('always-dir/stamp')), 'the command ran');

    // Remembered where the user's rules live (not in the workspace), scoped to this workspace.
    const saved = JSON.parse(readFileSync(permissions, 'utf8')) as { rules: Array<{ type: string; pattern: string; action: string; workspace: string }> };
    assert.deepEqual(
      saved.rules.map((r) => [r.type, r.pattern, r.action, r.workspace]),
      [
        ['prefix', 'mkdir', 'allow', wb.workspace],
        ['prefix', 'touch', 'allow', wb.workspace],
      ],
    );
    assert.equal(existsSync(file('.opendev/permissions.json')), false, 'the project file is not written');

    // The same command again: it runs (the stamp is touched anew) and no card asks.
    const cards = await chat.locator('.entry.approval').count();
    utimesSync(file('always-dir/stamp'), new Date(0), new Date(0));
    await ask('stamp again');
    assert.match(await answer(1), /^Result: \(no output\)/);
    assert.equal(await chat.locator('.entry.approval').count(), cards, 'no approval card this time');
    assert.ok(statSync(file('always-dir/stamp')).mtimeMs > Date.now() - 120_000, 'the stamp was touched by the second run');
    await wb.screenshot('approval-always-allowed');
  });

  it('Deny with a reason: nothing runs and the model is told it was denied, with the reason', async () => {
    await ask('copy math');
    const { card, answered } = await pendingCard();
    await card.locator('input.feedback-input').fill('keep the folder clean');
    await card.locator('vscode-button[data-action="deny"]').click();
    await answered.waitFor();
    assert.match((await answered.textContent()) ?? '', /✗ Denied: keep the folder clean/);
    assert.match(await answer(2), /^Result: Error \(rejected\): The user denied run_command: keep the folder clean/);
    assert.match(lastResult(), /Do not retry it unchanged/);
    assert.equal(existsSync(file('denied-copy.ts')), false, 'the command did not run');
    await wb.screenshot('approval-denied');
  });

  it('Edit command, then Run edited: the edited command runs instead, and its output reaches the model', async () => {
    await ask('copy it now');
    const { card, answered } = await pendingCard();
    const command = card.locator('input.command-input');
    assert.equal(await command.inputValue(), 'cp math.ts math-copy.ts');
    assert.equal(await card.locator('vscode-button[data-action="edit"]').isVisible(), false, 'Run edited shows once the command is edited');
    // The edit is judged afresh (danger and deny rules), but never asks again: the user wrote it.
    await command.fill('mkdir -pv edited-dir');
    const runEdited = card.locator('vscode-button[data-action="edit"]');
    await runEdited.waitFor({ state: 'visible' });
    assert.equal(await card.locator('vscode-button[data-action="allow"]').isVisible(), false, 'Allow would run the original: it hides');
    await wb.screenshot('approval-command-edited');
    await runEdited.click();
    await answered.waitFor();
    assert.match((await answered.textContent()) ?? '', /✓ Ran the edited command: mkdir -pv edited-dir/);
    assert.match(await answer(3), /^Result: The user edited your command before approving it; this is the output of their version: `?mkdir -pv edited-dir/);
    assert.match(lastResult(), /\nmkdir: created directory 'edited-dir'/, 'then the edited command\'s output');
    assert.ok(statSync(file('edited-dir')).isDirectory(), 'the edited command ran');
    assert.equal(existsSync(file('math-copy.ts')), false, 'the original did not');
    await wb.screenshot('approval-edited-ran');
  });

  it('plan review: "Approve & auto-approve edits" lets the plan\'s edit run without an approval card', async () => {
    await ask('carry out the PI plan');
    const plan = chat.locator('.entry.plan[data-state="pending"]');
    await plan.waitFor();
    const approveAuto = plan.locator('vscode-button[data-action="approve_auto"]');
    assert.equal((await approveAuto.textContent())?.trim(), 'Approve & auto-approve edits');
    const cards = await chat.locator('.entry.approval').count();
    // Its id before the click: once answered, it is no longer the pending card the locator names.
    const id = await plan.getAttribute('data-id');
    await approveAuto.click();
    const decided = chat.locator(`.entry.plan[data-id="${id}"][data-state="answered"]`);
    await decided.waitFor();
    assert.match((await decided.textContent()) ?? '', /✓ Approved; edits run without asking/);
    assert.match(await answer(4), /^Result: /);
    const edit = chat.locator('.entry.tool[data-status="ok"]', { hasText: 'Edited math.ts' });
    await edit.waitFor();
    assert.equal(await chat.locator('.entry.approval').count(), cards, 'the edit asked no approval');
    assert.match(readFileSync(file('math.ts'), 'utf8'), /export const PI = Math\.PI;/, 'and it was applied');
    await wb.screenshot('approval-plan-auto-edits');
  });
});
