import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as l10n from '@vscode/l10n';
import type { ApprovalRequest } from '../../../src/core/ui';
import { approvalHeadline } from '../../../src/wording/approval-headline';

/** An approval's question in words, from the tool cards' own verbs; never the tool's name. */
describe('approval headlines', () => {
  const ask = (toolName: string, args: unknown, extra: Partial<ApprovalRequest> = {}) =>
    approvalHeadline({ kind: 'tool', toolName, title: `${toolName}?`, args: JSON.stringify(args), aboutCall: true, ...extra });
  const creates = { path: '/w/notes.md', before: '', after: 'x', hunks: [], creates: true as const };

  it('says what will happen: edit, run, create, overwrite, delete', () => {
    assert.equal(ask('edit_file', { file_path: 'math.ts', old_content: 'a', new_content: 'b' }), 'Edit math.ts?');
    assert.equal(ask('run_command', { command: 'npm test' }), 'Run npm test?');
    assert.equal(ask('write_file', { file_path: 'notes.md', content: 'x' }, { proposed: creates }), 'Create notes.md?');
    assert.equal(ask('write_file', { file_path: 'notes.md', content: 'x' }), 'Overwrite notes.md?');
    assert.equal(ask('notebook_edit', { file_path: 'a.ipynb', action: 'delete', cell_index: 2 }), 'Delete cell 2 of a.ipynb?');
  });

  it('names an MCP tool by its title and server, and any other tool in words', () => {
    assert.equal(ask('mcp__memory__create_entities', { entities: [] }), 'Use Create entities from memory?');
    const other = ask('open_browser', { url: 'http://localhost:3000' });
    assert.equal(other, 'Allow Open browser?');
    assert.doesNotMatch(other, /_/);
  });

  it("keeps the gate's reason, and leaves questions that are not about the call as their asker wrote them", () => {
    assert.equal(ask('run_command', { command: 'rm -rf build' }, { reason: 'deletes files' }), 'Run rm -rf build? (deletes files)');
    const loop = { kind: 'doom_loop' as const, toolName: 'read_file', title: 'The agent is repeating the same action (read_file, 3 times). Allow it once more, or abort?', args: '{}' };
    assert.equal(approvalHeadline(loop), loop.title);
    assert.equal(approvalHeadline({ kind: 'tool', toolName: 'MCP server x', title: 'Start MCP server x from .mcp.json: `x`?', args: '{}' }), 'Start MCP server x from .mcp.json: `x`?');
  });

  describe('in Simplified Chinese', () => {
    const zhCn = JSON.parse(readFileSync(join(__dirname, '../../../../l10n/bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;
    before(() => l10n.config({ contents: zhCn }));
    after(() => l10n.config({ contents: {} }));

    it('asks in the display language', () => {
      assert.equal(ask('edit_file', { file_path: 'math.ts' }), '编辑 math.ts？');
      assert.equal(ask('run_command', { command: 'npm test' }), '运行 npm test？');
      assert.equal(ask('write_file', { file_path: 'notes.md' }, { proposed: creates }), '创建 notes.md？');
    });
  });
});
