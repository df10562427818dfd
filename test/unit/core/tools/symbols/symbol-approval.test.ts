import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolDispatcher } from '../../../../../src/core/agent/tool-dispatcher';
import { approvalGate } from '../../../../../src/core/safety/approval-gate';
import type { ApprovalLevel } from '../../../../../src/core/config/approval-level';
import { createBuiltinRegistry } from '../../../../../src/core/tools/builtin-tools';
import type { ToolExecutionContext } from '../../../../../src/core/tools/tool';
import type { ApprovalRequest, UICallback } from '../../../../../src/core/ui';
import { editorHostPorts } from '../../../../helpers/editor-ports';
import { toolContext } from '../../../../helpers/tool-context';

/** The symbol tools that write are approved like edit_file; the ones that read never ask. */
describe('symbol tools and approval', () => {
  const host = editorHostPorts();
  const registry = createBuiltinRegistry(host);
  const asked: ApprovalRequest[] = [];
  const ui: UICallback = {
    onTextDelta() {},
    onToolStart() {},
    onToolEnd() {},
    requestApproval: async (req) => {
      asked.push(req);
      return { action: 'deny' };
    },
  };
  let root: string;
  const run = async (name: string, args: unknown, ctx: Partial<ToolExecutionContext> = {}, level: ApprovalLevel = 'semi-auto') => {
    const dispatcher = new ToolDispatcher(registry, approvalGate(registry, () => level));
    const [result] = await dispatcher.dispatch([{ id: 'c', name, arguments: JSON.stringify(args) }], toolContext({ workspaceRoot: root, ui, host, ...ctx }));
    return result!;
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-symbol-approval-'));
    writeFileSync(join(root, 'shapes.ts'), 'export const x = 1;\n');
    asked.length = 0;
  });

  it('semi-auto asks before a rename, a body replacement, an insertion and a notebook edit; "deny" stops each', async () => {
    const calls: [string, unknown][] = [
      ['rename_symbol', { file_path: 'shapes.ts', name_path: 'x', new_name: 'y' }],
      ['replace_symbol_body', { file_path: 'shapes.ts', name_path: 'x', body: 'return 1;' }],
      ['insert_after_symbol', { file_path: 'shapes.ts', name_path: 'x', content: 'const z = 2;' }],
      ['insert_before_symbol', { file_path: 'shapes.ts', name_path: 'x', content: 'const z = 2;' }],
      ['notebook_edit', { file_path: 'n.ipynb', cell_index: 0, source: 'x' }],
    ];
    for (const [name, args] of calls) {
      const result = await run(name, args);
      assert.equal(result.errorKind, 'rejected', `${name} was refused by the user, not run`);
    }
    assert.deepEqual(asked.map((a) => a.title), ['rename_symbol shapes.ts?', 'replace_symbol_body shapes.ts?', 'insert_after_symbol shapes.ts?', 'insert_before_symbol shapes.ts?', 'notebook_edit n.ipynb?']);
  });

  it('never asks for find_symbol or find_referencing_symbols', async () => {
    await run('find_symbol', { name_path: 'x' });
    await run('find_referencing_symbols', { name_path: 'x', file_path: 'shapes.ts' });
    assert.equal(asked.length, 0);
  });

  it('an approved plan with auto-approved edits covers them as it covers edit_file; plan mode refuses them', async () => {
    const approved = await run('replace_symbol_body', { file_path: 'shapes.ts', name_path: 'x', body: 'return 1;' }, { mode: { mode: 'normal', autoApproveEdits: true } });
    assert.equal(asked.length, 0);
    assert.notEqual(approved.errorKind, 'rejected', 'it ran (and met the test editor, which has no symbols)');
    // Auto: nothing asks, so the refusal is plan mode's.
    const planning = await run('rename_symbol', { file_path: 'shapes.ts', name_path: 'x', new_name: 'y' }, { mode: { mode: 'plan', autoApproveEdits: false } }, 'auto');
    assert.equal(planning.errorKind, 'permission');
    assert.match(planning.output, /plan mode/);
  });
});
