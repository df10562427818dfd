import * as assert from 'node:assert/strict';
import type { AskUserQuestion } from '../../../src/core/ui';
import { approvalMenu, askUserMenu, planReviewMenu, type MenuIO } from '../../../src/terminal-ui/menus';

/** Menu IO answering from a script; records what was shown. An exhausted script behaves like the end of input. */
function scripted(...answers: string[]): MenuIO & { shown: () => string } {
  let shown = '';
  return {
    color: false,
    write: (t) => (shown += t),
    ask: async (prompt) => {
      shown += prompt;
      const a = answers.shift();
      if (a !== undefined) shown += `${a}\n`;
      return a;
    },
    shown: () => shown,
  };
}
const signal = new AbortController().signal;
const tool = { kind: 'tool' as const, toolName: 'run_command', title: 'Run npm test?', args: '{"command":"npm test"}', command: 'npm test' };

describe('terminal menus', () => {
  describe('approval', () => {
    it('1 allow, 2 always, 3 deny with an optional reason, 4 edit the command', async () => {
      assert.deepEqual(await approvalMenu(scripted('1'), tool, signal), { action: 'allow' });
      assert.deepEqual(await approvalMenu(scripted('2'), tool, signal), { action: 'always' });
      assert.deepEqual(await approvalMenu(scripted('3'), tool, signal), { action: 'deny' });
      assert.deepEqual(await approvalMenu(scripted('3 use pnpm instead'), tool, signal), { action: 'deny', feedback: 'use pnpm instead' });
      assert.deepEqual(await approvalMenu(scripted('4', 'npm test -- --bail'), tool, signal), { action: 'edit', command: 'npm test -- --bail' });
      assert.deepEqual(await approvalMenu(scripted('4 pnpm test'), tool, signal), { action: 'edit', command: 'pnpm test' });
    });

    it('shows the command and the options, and asks again after a bad answer', async () => {
      const io = scripted('9', 'yes', '1');
      assert.deepEqual(await approvalMenu(io, tool, signal), { action: 'allow' });
      assert.match(io.shown(), /⚠ Run npm test\?\n {2}command: npm test\n {2}1\) allow {3}2\) always allow {3}3\) deny \[reason\] {3}4\) edit the command/);
      assert.equal(io.shown().match(/Type a number from 1 to 4/g)?.length, 2);
    });

    it('has no edit option without a command, and shows a diff', async () => {
      const io = scripted('4', '1');
      const edit = { kind: 'tool' as const, toolName: 'edit_file', title: 'Edit a.ts?', args: '{}', diff: '--- a/a.ts\n+++ b/a.ts\n-old\n+new\n' };
      assert.deepEqual(await approvalMenu(io, edit, signal), { action: 'allow' });
      assert.match(io.shown(), /-old\n {2}\+new/);
      assert.doesNotMatch(io.shown(), /edit the command/);
    });

    it("asks the gate's question in the chat's words, with the raw call below it", async () => {
      const io = scripted('1');
      const gate = { kind: 'tool' as const, toolName: 'write_file', title: 'write_file /w/notes.md?', args: '{"file_path":"notes.md","content":"x"}', aboutCall: true as const, reason: 'outside the usual files' };
      assert.deepEqual(await approvalMenu(io, gate, signal), { action: 'allow' });
      assert.match(io.shown(), /^⚠ Overwrite notes\.md\? \(outside the usual files\)\n {2}write_file \{"file_path":"notes\.md","content":"x"\}\n/);
    });

    it('denies when the input ends or the request is cancelled', async () => {
      assert.deepEqual(await approvalMenu(scripted(), tool, signal), { action: 'deny', feedback: 'cancelled by the user' });
    });
  });

  describe('ask_user', () => {
    const questions: AskUserQuestion[] = [
      {
        header: 'Database',
        question: 'Which database?',
        multiSelect: false,
        options: [
          { label: 'Postgres', description: 'Relational' },
          { label: 'SQLite', description: 'A file' },
          { label: 'Other', description: 'Type your own answer.' },
        ],
      },
      {
        header: 'Features',
        question: 'Which features?',
        multiSelect: true,
        options: [
          { label: 'Auth', description: 'Log in' },
          { label: 'Search', description: 'Full text' },
        ],
      },
    ];

    it('numbers the options (Other last, added when missing), takes comma-separated numbers for multi-select', async () => {
      const io = scripted('2', '1, 2');
      const answers = await askUserMenu(io, questions, signal);
      assert.deepEqual(answers, {
        answers: [
          { header: 'Database', selected: ['SQLite'] },
          { header: 'Features', selected: ['Auth', 'Search'] },
        ],
      });
      assert.match(io.shown(), /\? \(1\/2\) \[Database\] Which database\?\n {2}1\) Postgres — Relational\n {2}2\) SQLite — A file\n {2}3\) Other/);
      assert.match(io.shown(), /3\) Other — Type your own answer\.\nchoose one or more/);
    });

    it('"Other" asks for the text; free text is taken as Other; bad numbers are re-asked', async () => {
      const answers = await askUserMenu(scripted('3', 'MariaDB', '7', 'Fulltext and auth'), questions, signal);
      assert.deepEqual(answers, {
        answers: [
          { header: 'Database', selected: ['Other'], other: 'MariaDB' },
          { header: 'Features', selected: ['Other'], other: 'Fulltext and auth' },
        ],
      });
      assert.deepEqual((await askUserMenu(scripted('1,2', '1'), [questions[0]!], signal))?.answers[0]?.selected, ['Postgres']);
    });

    it('returns undefined (declined) when the input ends', async () => {
      assert.equal(await askUserMenu(scripted('1'), questions, signal), undefined);
    });
  });

  describe('plan review', () => {
    const plan = { path: '.opendev/plans/add-auth.md', content: '# Goal\nAdd auth.\n' };
    it('1 approve and auto-approve edits, 2 approve, 3 modify with feedback', async () => {
      assert.deepEqual(await planReviewMenu(scripted('1'), plan, signal), { action: 'approve_auto' });
      assert.deepEqual(await planReviewMenu(scripted('2'), plan, signal), { action: 'approve' });
      const io = scripted('3', 'use sessions, not JWT');
      assert.deepEqual(await planReviewMenu(io, plan, signal), { action: 'modify', feedback: 'use sessions, not JWT' });
      assert.match(io.shown(), /Plan: \.opendev\/plans\/add-auth\.md[\s\S]*# Goal\nAdd auth\.[\s\S]*what should change\? › /);
      assert.deepEqual(await planReviewMenu(scripted('3 smaller steps'), plan, signal), { action: 'modify', feedback: 'smaller steps' });
      assert.deepEqual(await planReviewMenu(scripted(), plan, signal), { action: 'modify', feedback: 'The user cancelled the review.' });
    });
  });
});
