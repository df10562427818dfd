import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { chatSuite, type E2eHost, type Workbench } from '../host';
import { FakeProvider, lastUserText, toolResults, type RecordedRequest, type ScriptedTurn } from '../../fixtures/fake-provider';

/**
 * The chat view as the harness's front end, driven like a user in the real workbench: thinking
 * cards, approval / survey / plan-review cards answered by clicking, follow-ups queued while the
 * agent works, slash commands with autocomplete, and the mode switch. The fake model behind the
 * real openai SDK scripts each scenario from the conversation it is sent.
 */

const PLAN_PATH = '.opendev/plans/multiply.md';
const PLAN = `# Add multiply

## Goal
A multiply function in math.ts.

## Context
math.ts exports PI, add and subtract.

## Files to modify
- math.ts

## Files to create
None

## Implementation steps
1. Add \`multiply(a, b)\` to math.ts
2. Export it beside add

## Verification
Call multiply(2, 3) and expect 6.

## Risks
None
`;

const SURVEY = {
  questions: [
    {
      header: 'Database',
      question: 'Which database should the app use?',
      options: [
        { label: 'Postgres', description: 'A server database, best for many users' },
        { label: 'SQLite', description: 'A single file, nothing to run' },
      ],
      multiSelect: false,
    },
    {
      header: 'Extras',
      question: 'What else should I set up?',
      options: [
        { label: 'Docker', description: 'A compose file for local runs' },
        { label: 'CI', description: 'A GitHub Actions workflow' },
      ],
      multiSelect: true,
    },
  ],
};

type Message = { role: string; content?: unknown; tool_calls?: Array<{ function: { name: string } }> };
const messagesOf = (req: RecordedRequest): Message[] => (Array.isArray(req.body?.messages) ? req.body.messages : []);
const textOf = (m: Message) => (typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? m.content.map((p: { text?: string }) => p.text ?? '').join('') : '');
const hasTool = (req: RecordedRequest, name: string) => (req.body?.tools ?? []).some((t: { function?: { name?: string } }) => t.function?.name === name);

/** The calls the model made since the user's latest prompt that starts with `key`. */
function callsSince(req: RecordedRequest, key: string): string[] {
  const messages = messagesOf(req);
  let start = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user' && textOf(m).startsWith(key)) start = i;
  });
  if (start < 0) return [];
  return messages.slice(start).flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.function.name) : []));
}

function scenario(req: RecordedRequest): string | undefined {
  const keys = ['survey please', 'review my multiply plan', 'loop please', 'take your time', 'think first', 'use Math.PI'];
  const users = messagesOf(req).filter((m) => m.role === 'user').map(textOf);
  for (let i = users.length - 1; i >= 0; i--) {
    const key = keys.find((k) => users[i]!.startsWith(k));
    if (key) return key;
  }
  return undefined;
}

function respond(req: RecordedRequest): ScriptedTurn {
  // The thinking phase is a call without tools: answer it with a short trace.
  if (!req.body?.tools?.length) return { text: 'The user wants me to think first; reading math.ts will tell me what it exports.' };
  if (/also mention tests/.test(lastUserText(req))) return { text: 'Noted: I will add tests too.' };
  switch (scenario(req)) {
    case 'survey please': {
      if (!hasTool(req, 'ask_user')) return { text: 'ask_user is not available.' };
      if (toolResults(req).length > 0) return { text: `Thanks. ${toolResults(req)[0]!.content.split('\n').slice(1).join(' ')}` };
      return { toolCalls: [{ name: 'ask_user', arguments: SURVEY }] };
    }
    case 'review my multiply plan': {
      if (!hasTool(req, 'present_plan')) return { text: 'present_plan is not available.' };
      const presented = callsSince(req, 'review my multiply plan').filter((n) => n === 'present_plan').length;
      if (presented < 2) return { toolCalls: [{ name: 'present_plan', arguments: { plan_file_path: PLAN_PATH } }] };
      return { text: 'Starting on the plan.' };
    }
    case 'loop please':
      if (callsSince(req, 'loop please').length < 4) return { toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }] };
      return { text: 'Done looping.' };
    case 'take your time':
      return { text: 'one two three four five six', chunkDelayMs: 1_200 };
    case 'use Math.PI': {
      const done = callsSince(req, 'use Math.PI');
      if (done.length === 0) return { toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }] };
      if (done.length === 1) return { toolCalls: [{ name: 'edit_file', arguments: { file_path: 'math.ts', old_content: 'export const PI = 3.14159;', new_content: 'export const PI = Math.PI;' } }] };
      return { text: `Edit result: ${toolResults(req)[0]?.content.split('\n')[0] ?? ''}` };
    }
    case 'think first':
      return { text: 'Thought it through: math.ts exports add.' };
  }
  return { text: `echo: ${lastUserText(req)}` };
}

describe('chat view as the harness front end (end to end)', function () {
  this.timeout(180_000);
  const fake = new FakeProvider({ responder: respond });
  let host: E2eHost;
  let wb: Workbench;
  let chat: Frame;

  const suite = chatSuite(fake, {
    apiKey: 'sk-e2e-harness',
    // The shared workbench thinks before every action once thinking is on (the default thinks only
    // where a step needs it): the thinking card's test asks a one-step question with /thinking low.
    shared: true,
    prepare: (wb) => {
      mkdirSync(join(wb.workspace, '.opendev', 'plans'), { recursive: true });
      writeFileSync(join(wb.workspace, PLAN_PATH), PLAN);
    },
  });
  before(() => {
    ({ host, wb, chat } = suite);
  });

  const input = () => chat.locator('vscode-textarea[aria-label="Ask OpenDev"] textarea');
  async function ask(text: string): Promise<void> {
    await input().fill(text);
    await input().press('Enter');
  }
  async function idle(): Promise<void> {
    await chat.locator('#send').waitFor({ state: 'visible' });
  }

  it('slash autocomplete shows /plan after typing /p; a command answers without the model', async () => {
    await input().fill('/p');
    const suggestion = chat.locator('#suggestions .suggestion', { hasText: '/plan' });
    await suggestion.waitFor();
    assert.equal(await chat.locator('#suggestions .suggestion[aria-selected="true"] .suggestion-name').textContent(), '/plan');
    await wb.screenshot('harness-slash-autocomplete');
    await input().press('Escape');
    await chat.locator('#suggestions').waitFor({ state: 'hidden' });

    // Tab picks the highlighted command; the arguments list follows for /thinking.
    await input().fill('/thi');
    await chat.locator('#suggestions .suggestion', { hasText: '/thinking' }).waitFor();
    await input().press('Tab');
    assert.equal(await input().inputValue(), '/thinking ');
    await chat.locator('#suggestions .suggestion', { hasText: '/thinking high' }).waitFor();
    await input().press('ArrowDown');
    await input().press('Escape');

    const before = fake.requests.length;
    await ask('/help');
    const output = chat.locator('.entry.notice.command-output', { hasText: '/help' });
    await output.waitFor();
    assert.match((await output.textContent()) ?? '', /Commands \(handled without the model\)/);
    assert.equal(fake.requests.length, before, 'no model request for a slash command');
  });

  it('Alt+M in the input and the Switch Mode command toggle plan mode, shown in the view', async () => {
    const chip = chat.locator('#mode');
    assert.equal(await chip.textContent(), 'Normal mode');
    assert.match((await chip.getAttribute('title')) ?? '', /press Alt\+M to switch/);
    await input().click();
    await input().press('Alt+m');
    await chat.locator('#mode[data-mode="plan"]').waitFor();
    assert.equal(await chip.textContent(), 'Plan mode');
    assert.equal(await input().inputValue(), '', 'the chord types nothing');
    await wb.screenshot('harness-plan-mode');
    await host.runCommand(wb.page, 'OpenDev: Switch Mode');
    await chat.locator('#mode[data-mode="normal"]').waitFor();
    await chip.click();
    await chat.locator('#mode[data-mode="plan"]').waitFor();
    await chip.click();
    await chat.locator('#mode[data-mode="normal"]').waitFor();
  });

  it('shows the thinking phase as a collapsible card (/thinking low)', async () => {
    await ask('/thinking low');
    await chat.locator('#thinking-level', { hasText: 'Thinking: low' }).waitFor();
    try {
      await ask('think first');
      const card = chat.locator('.entry.thinking').last();
      await card.waitFor();
      await chat.locator('.entry.assistant', { hasText: 'Thought it through' }).waitFor();
      assert.equal(await card.getAttribute('open'), null, 'folded to one line by default');
      assert.match((await card.locator('.thinking-preview').textContent()) ?? '', /^The user wants me to think first/);
      await card.locator('summary').click();
      assert.match((await card.locator('.thinking-body').textContent()) ?? '', /reading math\.ts will tell me/);
      await idle();
      await wb.screenshot('harness-thinking-card');
      assert.match((await chat.locator('#cost').textContent()) ?? '', /^[\d.]+k? in .*· [\d.]+k? out/, 'the footer counts tokens');
    } finally {
      await ask('/thinking off');
      await chat.locator('#thinking-level', { hasText: 'Thinking off' }).waitFor();
    }
  });

  it('a doom-loop approval card is answered with Allow; Stop cancels the next one and the agent goes on', async () => {
    await ask('loop please');
    const card = chat.locator('.entry.approval[data-state="pending"]');
    await card.waitFor();
    assert.match((await card.textContent()) ?? '', /repeating the same action \(read_file, \d+ times\)/);
    assert.ok(await chat.locator('.entry.notice.warning', { hasText: 'repeated read_file' }).count(), 'the warning before the pause is shown');
    await wb.screenshot('harness-approval-pending');
    await card.locator('vscode-button[data-action="allow"]').click();
    const answered = chat.locator('.entry.approval[data-state="answered"]').last();
    await answered.waitFor();
    assert.match((await answered.textContent()) ?? '', /✓ Allowed/);
    await chat.locator('.entry.assistant', { hasText: 'Done looping.' }).last().waitFor();
    await idle();
    await wb.screenshot('harness-approval-answered');

    const answersBefore = await chat.locator('.entry.assistant', { hasText: 'Done looping.' }).count();
    await ask('loop please');
    await card.waitFor();
    await chat.locator('#stop').click();
    const cancelled = chat.locator('.entry.approval[data-state="cancelled"]');
    await cancelled.waitFor();
    assert.match((await cancelled.textContent()) ?? '', /Cancelled/);
    await chat.locator('.entry.notice', { hasText: 'Cancelled the open request' }).waitFor();
    // The card was cancelled, not the turn: the agent finishes on its own.
    await chat.locator('.entry.assistant', { hasText: 'Done looping.' }).nth(answersBefore).waitFor();
    await idle();
    await wb.screenshot('harness-approval-cancelled');
  });

  it('an edit asks first (semi-auto) with its diff; Allow applies it to the file', async () => {
    await ask('use Math.PI');
    const card = chat.locator('.entry.approval[data-state="pending"]');
    await card.waitFor();
    const text = (await card.textContent()) ?? '';
    assert.match(text, /Edit math\.ts\?/); // the question in words; the tool name is under "Show the call"
    assert.match(text, /-export const PI = 3\.14159;/);
    assert.match(text, /\+export const PI = Math\.PI;/);
    assert.match(readFileSync(join(wb.workspace, 'math.ts'), 'utf8'), /3\.14159/, 'nothing is written before the answer');
    await wb.screenshot('harness-edit-approval');
    await card.locator('vscode-button[data-action="allow"]').click();
    await chat.locator('.entry.assistant', { hasText: 'Edit result' }).last().waitFor();
    await idle();
    assert.match(readFileSync(join(wb.workspace, 'math.ts'), 'utf8'), /export const PI = Math\.PI;/);
  });

  it('queues a follow-up typed while a slow answer streams; the agent reads it next', async () => {
    await ask('take your time');
    await chat.locator('.entry.assistant', { hasText: /^one/ }).last().waitFor();
    await ask('also mention tests');
    const queued = chat.locator('.entry.user.queued', { hasText: 'also mention tests' });
    await queued.waitFor();
    assert.match((await queued.textContent()) ?? '', /Queued/);
    await wb.screenshot('harness-queued-follow-up');
    await chat.locator('.entry.assistant', { hasText: 'Noted: I will add tests too.' }).waitFor();
    await idle();
    assert.equal(await queued.count(), 0, 'no longer marked queued once read');
    const followUp = fake.requests.find((r) => /also mention tests/.test(lastUserText(r)));
    assert.ok(followUp, 'the follow-up reached the model');
    assert.match(JSON.stringify(followUp.body.messages), /one two three four five six/, 'after the answer it was typed during');
  });

  it('Escape in the view stops a running answer (the Stop keybinding)', async () => {
    const stopped = await chat.locator('.entry.notice', { hasText: 'Stopped.' }).count();
    await ask('take your time');
    await chat.locator('#stop').waitFor({ state: 'visible' });
    await chat.locator('.entry.assistant', { hasText: /^one/ }).last().waitFor();
    await input().press('Escape');
    await chat.locator('.entry.notice', { hasText: 'Stopped.' }).nth(stopped).waitFor();
    await idle();
  });

  it('ask_user: the survey card is answered and the answer reaches the model', async function () {
    await ask('survey please');
    const card = chat.locator('.entry.question[data-state="pending"]');
    await card.waitFor();
    assert.equal(await card.locator('fieldset.question').count(), 2);
    assert.match((await card.locator('fieldset.question').first().textContent()) ?? '', /A single file, nothing to run/, 'each option shows its description');
    await card.locator('label.option', { hasText: 'SQLite' }).click();
    await card.locator('label.option', { hasText: 'Docker' }).click();
    await card.locator('fieldset.question').nth(1).locator('input.other-input').fill('a Makefile');
    await wb.screenshot('harness-survey-pending');
    await card.locator('vscode-button[data-action="submit"]').click();
    const answered = chat.locator('.entry.question[data-state="answered"]').last();
    await answered.waitFor();
    await chat.locator('.entry.assistant', { hasText: 'Thanks.' }).waitFor();
    await idle();
    await wb.screenshot('harness-survey-answered');
    const next = fake.requests.find((r) => toolResults(r).some((t) => /The user answered/.test(t.content)));
    assert.ok(next, 'the answers came back as the tool result');
    const result = toolResults(next).map((t) => t.content).join('\n');
    assert.match(result, /→ SQLite/);
    assert.match(result, /Docker, Other: "a Makefile"/);
  });

  it('plan review: Request changes sends the feedback; Approve fills the todo list', async function () {
    await ask('review my multiply plan');
    const card = chat.locator('.entry.plan[data-state="pending"]');
    await card.waitFor();
    assert.equal(await card.locator('.plan-body h3').first().textContent(), 'Add multiply', 'the plan is rendered as markdown');
    assert.equal(await card.locator('.plan-body ol li').count(), 2);
    await card.locator('vscode-button[data-action="modify"]').waitFor();
    await wb.screenshot('harness-plan-pending');
    await card.locator('vscode-button[data-action="modify"]').click();
    await card.locator('textarea.feedback-input').fill('Also add divide, with a zero check.');
    await wb.screenshot('harness-plan-feedback');
    await card.locator('vscode-button[data-action="send-feedback"]').click();
    const changed = chat.locator('.entry.plan[data-state="answered"]').first();
    await changed.waitFor();
    assert.match((await changed.textContent()) ?? '', /Changes requested: Also add divide/);
    const withFeedback = fake.requests.find((r) => toolResults(r).some((t) => /Also add divide, with a zero check\./.test(t.content)));
    assert.ok(withFeedback, 'the feedback reached the model in the tool result');

    // The model presents the plan again: this time it is approved, and its steps become the todos.
    await card.waitFor();
    await card.locator('vscode-button[data-action="approve"]').click();
    await chat.locator('.entry.assistant', { hasText: 'Starting on the plan.' }).first().waitFor();
    await idle();
    const todos = chat.locator('#todos');
    await todos.waitFor({ state: 'visible' });
    assert.match((await todos.textContent()) ?? '', /0\/2 done/);
    assert.equal(await todos.locator('li.todo').count(), 2);
    assert.equal(await chat.locator('#mode').getAttribute('data-mode'), 'normal', 'approval leaves plan mode');
    await wb.screenshot('harness-plan-approved-todos');
  });

  it('keeps cards, todos, mode and the draft when the view is hidden and shown again', async () => {
    await input().fill('a draft I have not sent');
    const cards = await chat.locator('.entry.card').count();
    await host.runCommand(wb.page, 'View: Toggle Primary Side Bar Visibility');
    await host.runCommand(wb.page, 'View: Toggle Primary Side Bar Visibility');
    chat = await host.findFrame(wb.page, async (f) => (await f.locator('.entry.card').count()) > 0);
    assert.equal(await chat.locator('.entry.card').count(), cards);
    assert.equal(await input().inputValue(), 'a draft I have not sent');
    if (await chat.locator('.entry.plan').count()) assert.equal(await chat.locator('#todos li.todo').count(), 2);
    await wb.screenshot('harness-after-hide-show');
  });
});
