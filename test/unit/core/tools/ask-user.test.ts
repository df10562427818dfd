import * as assert from 'node:assert/strict';
import { askUserTool, parseAskUserTask } from '../../../../src/core/tools/ask-user';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { AskUserAnswers, AskUserQuestion, UICallback } from '../../../../src/core/ui';
import { silentUI } from '../../../../src/core/ui';
import { toolContext } from '../../../helpers/tool-context';

const q = (header: string, labels = ['Yes', 'No']) => ({
  header,
  question: `${header}?`,
  options: labels.map((label) => ({ label, description: `choose ${label}` })),
  multiSelect: false,
});

describe('ask_user', () => {
  const registry = new ToolRegistry().register(askUserTool);
  const call = (args: unknown, ui: UICallback = silentUI) =>
    registry.execute({ id: 'a', name: 'ask_user', arguments: JSON.stringify(args) }, toolContext({ workspaceRoot: process.cwd(), ui }));

  function fakeUI(answer: (questions: readonly AskUserQuestion[]) => AskUserAnswers | undefined) {
    const asked: Array<readonly AskUserQuestion[]> = [];
    const ui: UICallback = {
      ...silentUI,
      async askUser(questions) {
        asked.push(questions);
        return answer(questions);
      },
    };
    return { ui, asked };
  }

  it('is read-only and exposes questions/header/options/multiSelect in its schema', () => {
    assert.equal(askUserTool.readOnly, true);
    const params = registry.schemas()[0]!.parameters as { required: string[]; properties: { questions: { maxItems: number } } };
    assert.deepEqual(params.required, ['questions']);
    assert.equal(params.properties.questions.maxItems, 4);
  });

  it('appends the "Other" free-text choice and reports selected labels and typed text', async () => {
    const { ui, asked } = fakeUI(() => ({
      answers: [
        { header: 'Database', selected: ['Postgres'] },
        { header: 'Scope', selected: ['API', 'CLI'] },
        { header: 'Style', selected: ['Other'], other: 'Like the existing handlers' },
      ],
    }));
    const r = await call(
      { questions: [q('Database', ['Postgres', 'SQLite']), { ...q('Scope', ['API', 'CLI', 'UI']), multiSelect: true }, q('Style', ['Terse', 'Verbose'])] },
      ui,
    );
    assert.equal(r.ok, true, r.output);
    assert.equal(asked.length, 1);
    assert.deepEqual(asked[0]![0]!.options.map((o) => o.label), ['Postgres', 'SQLite', 'Other']);
    assert.ok(asked[0]!.every((question) => question.options.at(-1)!.label === 'Other' && question.options.at(-1)!.description !== ''));
    assert.equal(asked[0]![1]!.multiSelect, true);
    assert.match(r.output, /1\. \[Database\] Database\?\n\s+→ Postgres/);
    assert.match(r.output, /→ API, CLI/);
    assert.match(r.output, /→ Other: "Like the existing handlers"/);
    assert.match(r.summary, /User answered 3 questions \(Database, Scope, Style\)/);
  });

  it('says the user declined when the dialog is cancelled', async () => {
    const { ui } = fakeUI(() => undefined);
    const r = await call({ questions: [q('Confirm')] }, ui);
    assert.equal(r.ok, true);
    assert.match(r.output, /declined to answer/);
    assert.match(r.summary, /declined/);
  });

  it('fails clearly without an interactive user (headless)', async () => {
    const r = await call({ questions: [q('Confirm')] });
    assert.equal(r.ok, false);
    assert.match(r.output, /no user is available to answer \(non-interactive run\); proceed with your best judgement and state your assumptions/);
  });

  it('rejects a header over 12 chars, 5 questions, 1 option, options without descriptions and a model-made "Other"', async () => {
    const { ui, asked } = fakeUI(() => ({ answers: [] }));
    const cases: Array<[unknown, RegExp]> = [
      [{ questions: [q('Authentication')] }, /header must be at most 12 characters[\s\S]*questions\[0\]\.header/],
      [{ questions: [q('a'), q('b'), q('c'), q('d'), q('e')] }, /ask at most 4 questions/],
      [{ questions: [q('One', ['Only'])] }, /each question needs 2 to 4 options/],
      [{ questions: [q('Five', ['a', 'b', 'c', 'd', 'e'])] }, /each question needs 2 to 4 options/],
      [{ questions: [{ ...q('Desc'), options: [{ label: 'a' }, { label: 'b', description: 'b' }] }] }, /every option needs a description/],
      [{ questions: [q('Other', ['Yes', 'other'])] }, /do not include an "Other" option/],
      [{ questions: [] }, /ask at least one question/],
      [{}, /at questions/],
    ];
    for (const [args, message] of cases) {
      const r = await call(args, ui);
      assert.equal(r.ok, false, JSON.stringify(args));
      assert.match(r.output, message);
    }
    assert.equal(asked.length, 0);
  });

  it('defaults multiSelect to false', async () => {
    const { ui, asked } = fakeUI(() => ({ answers: [{ header: 'x', selected: ['Yes'] }] }));
    const { multiSelect: _omit, ...question } = q('Confirm');
    const r = await call({ questions: [question] }, ui);
    assert.equal(r.ok, true, r.output);
    assert.equal(asked[0]![0]!.multiSelect, false);
  });

  it('parses the Ask-User subagent task (object or bare array) and explains a bad one', () => {
    const ok = parseAskUserTask(JSON.stringify({ questions: [q('Confirm')] }));
    assert.ok('questions' in ok && ok.questions.length === 1);
    assert.ok('questions' in parseAskUserTask(JSON.stringify([q('Confirm')])));
    const notJson = parseAskUserTask('Ask the user which database to use');
    assert.ok('error' in notJson && /takes its task as JSON/.test(notJson.error));
    const bad = parseAskUserTask(JSON.stringify({ questions: [q('Far too long a header')] }));
    assert.ok('error' in bad && /at most 12 characters/.test(bad.error));
  });
});
