import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TodoStore } from '../../../../src/core/todos/todo-store';
import { parsePlan, presentPlanTool } from '../../../../src/core/tools/present-plan';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { ToolExecutionContext } from '../../../../src/core/tools/tool';
import type { AgentMode, PlanDecision, PlanForReview, UICallback } from '../../../../src/core/ui';
import { silentUI } from '../../../../src/core/ui';
import { toolContext } from '../../../helpers/tool-context';

const PLAN = `# Plan: email validation

## Goal
Reject invalid emails at login.

## Context
\`src/login.ts:12\` submits without checks.

## Files to Modify
- \`src/login.ts\` — call the validator.

## Files to create
- \`src/validate.ts\`

## Implementation steps
1. Add \`validateEmail()\` to src/validate.ts
   - trim whitespace
   - require a domain
2. **Call it** from LoginForm.submit
3. Add tests in test/validate.test.ts

\`\`\`
## Risks (inside a code fence: not a heading)
\`\`\`

## Verification
Run \`npm test\`.

## Risks and mitigations
Existing users with odd addresses.
`;

describe('present_plan', () => {
  const registry = new ToolRegistry().register(presentPlanTool);
  let root: string;
  let todos: TodoStore;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-plan-'));
    mkdirSync(join(root, '.opendev', 'plans'), { recursive: true });
    writeFileSync(join(root, '.opendev', 'plans', 'email.md'), PLAN);
    todos = new TodoStore();
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  function setup(decision: PlanDecision | undefined, overrides: Partial<ToolExecutionContext> = {}) {
    const reviewed: PlanForReview[] = [];
    const modes: AgentMode[] = [];
    const ui: UICallback = {
      ...silentUI,
      onModeChange: (m) => modes.push(m),
      ...(decision
        ? {
            async reviewPlan(plan: PlanForReview) {
              reviewed.push(plan);
              return decision;
            },
          }
        : {}),
    };
    const ctx = toolContext({ workspaceRoot: root, ui, todos, mode: { mode: 'plan', autoApproveEdits: false }, ...overrides });
    const call = (path: string) => registry.execute({ id: 'p', name: 'present_plan', arguments: JSON.stringify({ plan_file_path: path }) }, ctx);
    return { ctx, call, reviewed, modes };
  }

  it('approve_auto: steps become todos, mode back to normal, edits auto-approved', async () => {
    const { ctx, call, reviewed, modes } = setup({ action: 'approve_auto' });
    const r = await call('.opendev/plans/email.md');
    assert.equal(r.ok, true, r.output);
    assert.equal(reviewed.length, 1);
    assert.equal(reviewed[0]!.path, join(root, '.opendev', 'plans', 'email.md'));
    assert.equal(reviewed[0]!.content, PLAN);
    assert.deepEqual(todos.list().map((t) => t.title), [
      'Add `validateEmail()` to src/validate.ts',
      'Call it from LoginForm.submit',
      'Add tests in test/validate.test.ts',
    ]);
    assert.equal(todos.list()[0]!.description, '- trim whitespace\n- require a domain');
    assert.equal(ctx.mode.mode, 'normal');
    assert.equal(ctx.mode.autoApproveEdits, true);
    assert.deepEqual(modes, ['normal']);
    assert.match(r.output, /auto-approved its edits/);
    assert.match(r.output, /\[ \] 1\. Add `validateEmail\(\)`/);
    assert.match(r.summary, /Plan approved \(edits auto-approved\): 3 todos/);
  });

  it('approve: todos and normal mode, but edits still need approval', async () => {
    const { ctx, call } = setup({ action: 'approve' });
    const r = await call(join(root, '.opendev/plans/email.md'));
    assert.equal(r.ok, true, r.output);
    assert.equal(todos.list().length, 3);
    assert.equal(ctx.mode.mode, 'normal');
    assert.equal(ctx.mode.autoApproveEdits, false);
    assert.match(r.output, /each edit will still be shown/);
  });

  it('modify: hands the feedback back for the planner and changes nothing', async () => {
    const { ctx, call } = setup({ action: 'modify', feedback: 'Also validate on signup.' });
    const r = await call('.opendev/plans/email.md');
    assert.equal(r.ok, true, r.output);
    assert.match(r.output, /Also validate on signup\./);
    assert.match(r.output, /Spawn the Planner again/);
    assert.match(r.summary, /Plan needs changes: Also validate on signup/);
    assert.equal(todos.list().length, 0);
    assert.equal(ctx.mode.mode, 'plan');
  });

  it('rejects a plan missing sections, naming them, without asking the user', async () => {
    writeFileSync(join(root, 'short.md'), '# Plan\n\n## Goal\nx\n\n## Implementation Steps\n1. do it\n\n## risks\nnone\n');
    const { call, reviewed } = setup({ action: 'approve' });
    const r = await call('short.md');
    assert.equal(r.ok, false);
    assert.match(r.output, /missing sections: Context, Files to modify, Files to create, Verification\./);
    assert.equal(reviewed.length, 0);
  });

  it('rejects a plan whose implementation steps have no list items', async () => {
    writeFileSync(join(root, 'prose.md'), PLAN.replace(/1\. Add[\s\S]*?test\.ts\n/, 'We will add a validator.\n'));
    const r = await setup({ action: 'approve' }).call('prose.md');
    assert.equal(r.ok, false);
    assert.match(r.output, /no numbered or bulleted steps/);
  });

  it('headless: a clear error; missing file: not_found; outside the workspace: permission', async () => {
    let r = await setup(undefined).call('.opendev/plans/email.md');
    assert.equal(r.ok, false);
    assert.match(r.output, /no user is available to review the plan \(non-interactive run\)/);
    r = await setup({ action: 'approve' }).call('nope.md');
    assert.equal(r.errorKind, 'not_found');
    r = await setup({ action: 'approve' }).call('../../etc/passwd');
    assert.equal(r.errorKind, 'permission');
  });

  it('accepts plans under OPENDEV_HOME/plans', async () => {
    const home = mkdtempSync(join(tmpdir(), 'opendev-home-'));
    const saved = process.env.OPENDEV_HOME;
    process.env.OPENDEV_HOME = home;
    try {
      mkdirSync(join(home, 'plans'));
      writeFileSync(join(home, 'plans', 'p.md'), PLAN);
      const r = await setup({ action: 'approve' }).call(join(home, 'plans', 'p.md'));
      assert.equal(r.ok, true, r.output);
    } finally {
      if (saved === undefined) delete process.env.OPENDEV_HOME;
      else process.env.OPENDEV_HOME = saved;
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('refuses subagents', async () => {
    const r = await setup({ action: 'approve' }, { agent: { name: 'Planner', isSubagent: true } }).call('.opendev/plans/email.md');
    assert.equal(r.ok, false);
    assert.equal(r.errorKind, 'permission');
    assert.match(r.output, /main agent only/);
  });

  it('reads steps from sub-headings and matches numbered, bold, mixed-case headings', () => {
    const plan = parsePlan(
      '## 1. **GOAL**\nx\n## 2. Context:\nx\n## Files to modify\n## Files To Create\n## Implementation Steps\n' +
        '### Step 1: Create the module\ndetails one\n### Step 2: Wire it\n## Verification\n## Risks\n',
    );
    assert.deepEqual(plan.missing, []);
    assert.deepEqual(plan.steps, ['Create the module\ndetails one', 'Wire it']);
  });
});
