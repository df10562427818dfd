import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PromptComposer } from '../../../../../src/core/context/prompt/prompt-composer';
import { PromptVariables } from '../../../../../src/core/context/prompt/prompt-variables';

/** A templates folder of our own (OPENDEV_TEMPLATES_DIR) with sections under system/sections/. */
function templatesWith(sections: Record<string, { priority: number; condition: string; cacheable: boolean; body: string }>) {
  const root = mkdtempSync(join(tmpdir(), 'opendev-templates-'));
  mkdirSync(join(root, 'system', 'sections'), { recursive: true });
  writeFileSync(join(root, 'system', 'identity.md'), '---\nname: identity\n---\nI am the identity.\n');
  writeFileSync(join(root, 'system', 'fallback.md'), '---\nname: fallback\n---\nThe fallback, finish with ${COMPLETE_TOOL.name}.\n');
  for (const [name, s] of Object.entries(sections)) {
    writeFileSync(
      join(root, 'system', 'sections', `${name}.md`),
      `---\nname: ${name}\npriority: ${s.priority}\ncondition: ${s.condition}\ncacheable: ${s.cacheable}\n---\n${s.body}\n`,
    );
  }
  return root;
}

describe('PromptComposer', () => {
  const saved = process.env.OPENDEV_TEMPLATES_DIR;
  const composer = (warnings: string[] = []) =>
    new PromptComposer({ sectionsDir: 'system/sections', identityTemplate: 'system/identity.md', fallbackTemplate: 'system/fallback.md', onWarning: (w) => warnings.push(w) });
  afterEach(() => {
    if (saved === undefined) delete process.env.OPENDEV_TEMPLATES_DIR;
    else process.env.OPENDEV_TEMPLATES_DIR = saved;
  });

  it('orders sections by priority (not by file name), after the identity, separated by blank lines', () => {
    process.env.OPENDEV_TEMPLATES_DIR = templatesWith({
      a: { priority: 30, condition: 'always', cacheable: true, body: 'Third.' },
      b: { priority: 10, condition: 'always', cacheable: true, body: 'First.' },
      c: { priority: 20, condition: 'always', cacheable: true, body: 'Second.' },
    });
    assert.equal(composer().compose({}), 'I am the identity.\n\nFirst.\n\nSecond.\n\nThird.');
  });

  it('composeTwoPart puts cacheable sections in stable and the others in dynamic, each in priority order', () => {
    process.env.OPENDEV_TEMPLATES_DIR = templatesWith({
      rules: { priority: 10, condition: 'always', cacheable: true, body: 'Rules.' },
      session: { priority: 5, condition: 'always', cacheable: false, body: 'Session.' },
      notes: { priority: 50, condition: 'always', cacheable: false, body: 'Notes.' },
      style: { priority: 40, condition: 'always', cacheable: true, body: 'Style.' },
    });
    assert.deepEqual(composer().composeTwoPart({}), { stable: 'I am the identity.\n\nRules.\n\nStyle.', dynamic: 'Session.\n\nNotes.' });
  });

  const conditionCases: Array<{ condition: string; holds: object; fails: object }> = [
    { condition: 'in_git_repo', holds: { inGitRepo: true }, fails: { inGitRepo: false } },
    { condition: 'has_subagents', holds: { subagentTypes: ['Code-Explorer'] }, fails: { subagentTypes: [] } },
    { condition: 'todo_enabled', holds: { todoEnabled: true }, fails: { todoEnabled: false } },
    { condition: 'provider:openai', holds: { provider: 'openai' }, fails: { provider: 'anthropic' } },
    { condition: 'provider:anthropic', holds: { provider: 'anthropic' }, fails: { provider: 'fireworks' } },
    { condition: 'provider:fireworks', holds: { provider: 'fireworks' }, fails: { provider: 'openai' } },
    { condition: 'session_id', holds: { sessionId: 'ab12cd34' }, fails: {} },
  ];
  for (const c of conditionCases) {
    it(`a "${c.condition}" section is included only when its condition holds`, () => {
      process.env.OPENDEV_TEMPLATES_DIR = templatesWith({
        base: { priority: 1, condition: 'always', cacheable: true, body: 'Always here.' },
        gated: { priority: 2, condition: c.condition, cacheable: true, body: 'Gated text.' },
      });
      assert.match(composer().compose(c.holds), /Gated text\./);
      const without = composer().compose(c.fails);
      assert.doesNotMatch(without, /Gated text\./);
      assert.match(without, /Always here\./);
    });
  }

  it('resolves ${VAR} through PromptVariables; an unknown variable stays visible', () => {
    process.env.OPENDEV_TEMPLATES_DIR = templatesWith({
      tools: { priority: 1, condition: 'always', cacheable: true, body: 'Edit with ${EDIT_TOOL.name}, read with ${READ_TOOL.name}.' },
      env: { priority: 2, condition: 'always', cacheable: false, body: 'Root ${WORKSPACE_ROOT}, scratch ${SCRATCH_DIR}, ${NO_SUCH_VAR}.' },
    });
    const { stable, dynamic } = composer().composeTwoPart({ workspaceRoot: '/w', scratchDir: '/s/1' });
    assert.match(stable, /Edit with edit_file, read with read_file\./);
    assert.equal(dynamic, 'Root /w, scratch /s/1, ${NO_SUCH_VAR}.');
  });

  it('takes extra variables (the thinking phase’s MAX_WORDS) over the context’s', () => {
    process.env.OPENDEV_TEMPLATES_DIR = templatesWith({ rule: { priority: 1, condition: 'always', cacheable: true, body: 'At most ${MAX_WORDS} words.' } });
    assert.match(composer().compose({}, PromptVariables.forContext({}).with({ MAX_WORDS: '60' })), /At most 60 words\./);
  });

  it('skips a section with an unknown condition and reports it once, naming the file', () => {
    process.env.OPENDEV_TEMPLATES_DIR = templatesWith({
      good: { priority: 1, condition: 'always', cacheable: true, body: 'Good.' },
      odd: { priority: 2, condition: 'when_tuesday', cacheable: true, body: 'Odd.' },
    });
    const warnings: string[] = [];
    const c = composer(warnings);
    assert.equal(c.compose({}), 'I am the identity.\n\nGood.');
    c.compose({});
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /odd\.md/);
    assert.match(warnings[0]!, /when_tuesday/);
  });

  it('skips a section file without frontmatter or with a non-numeric priority, and keeps the rest', () => {
    const root = templatesWith({ good: { priority: 1, condition: 'always', cacheable: true, body: 'Good.' } });
    writeFileSync(join(root, 'system', 'sections', 'bare.md'), 'No frontmatter at all.\n');
    writeFileSync(join(root, 'system', 'sections', 'late.md'), '---\nname: late\npriority: soon\ncondition: always\ncacheable: true\n---\nLate.\n');
    process.env.OPENDEV_TEMPLATES_DIR = root;
    const warnings: string[] = [];
    assert.equal(composer(warnings).compose({}), 'I am the identity.\n\nGood.');
    assert.equal(warnings.length, 2);
    assert.ok(warnings.some((w) => /bare\.md/.test(w)) && warnings.some((w) => /late\.md.*priority/.test(w)), warnings.join('\n'));
  });

  it('takes a quoted priority or cacheable flag as well as a bare one, and names a wrong one', () => {
    const root = templatesWith({ bare: { priority: 2, condition: 'always', cacheable: true, body: 'Bare.' } });
    writeFileSync(join(root, 'system', 'sections', 'quoted.md'), '---\nname: quoted\npriority: "1"\ncondition: always\ncacheable: "false"\n---\nQuoted.\n');
    writeFileSync(join(root, 'system', 'sections', 'yes.md'), '---\nname: yes\npriority: 3\ncondition: always\ncacheable: yes\n---\nYes.\n');
    writeFileSync(join(root, 'system', 'sections', 'open.md'), '---\nname: open\npriority: [3\ncondition: always\ncacheable: true\n---\nOpen.\n');
    process.env.OPENDEV_TEMPLATES_DIR = root;
    const warnings: string[] = [];
    assert.deepEqual(composer(warnings).composeTwoPart({}), { stable: 'I am the identity.\n\nBare.', dynamic: 'Quoted.' });
    assert.equal(warnings.length, 2, warnings.join('\n'));
    assert.ok(warnings.some((w) => /yes\.md.*cacheable/.test(w)) && warnings.some((w) => /open\.md.*invalid frontmatter: line 3: Flow sequence .* end with a \]/.test(w)), warnings.join('\n'));
  });

  it('a missing section file is simply absent from the prompt', () => {
    const root = templatesWith({
      one: { priority: 1, condition: 'always', cacheable: true, body: 'One.' },
      two: { priority: 2, condition: 'always', cacheable: true, body: 'Two.' },
    });
    process.env.OPENDEV_TEMPLATES_DIR = root;
    rmSync(join(root, 'system', 'sections', 'two.md'));
    assert.equal(composer().compose({}), 'I am the identity.\n\nOne.');
  });

  it('a missing sections folder falls back to the one monolithic template, rendered', () => {
    const root = templatesWith({});
    rmSync(join(root, 'system', 'sections'), { recursive: true });
    process.env.OPENDEV_TEMPLATES_DIR = root;
    assert.deepEqual(composer().composeTwoPart({}), { stable: 'The fallback, finish with task_complete.', dynamic: '' });
  });
});
