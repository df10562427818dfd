import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolDispatcher } from '../../../../src/core/agent/tool-dispatcher';
import { approvalGate } from '../../../../src/core/safety/approval-gate';
import { createBuiltinRegistry } from '../../../../src/core/tools/builtin-tools';
import { changeHunks } from '../../../../src/core/tools/edit/change-hunks';
import type { ToolResult } from '../../../../src/core/tools/tool';
import type { ApprovalDecision, ApprovalRequest, UICallback } from '../../../../src/core/ui';
import { toolContext } from '../../../helpers/tool-context';

/**
 * An edit reviewed hunk by hunk (the VS Code diff editor's lenses): the request carries the whole
 * proposal, the tool writes exactly the accepted hunks, and the model hears which were rejected.
 */
describe('hunk-by-hunk approval of edits', () => {
  let root: string;
  const registry = createBuiltinRegistry();
  const asked: ApprovalRequest[] = [];
  let answer: (req: ApprovalRequest) => ApprovalDecision = () => ({ action: 'allow' });
  const ended: ToolResult[] = [];
  const ui: UICallback = {
    onTextDelta() {},
    onToolStart() {},
    onToolEnd: (_call, result) => ended.push(result),
    requestApproval: async (req) => {
      asked.push(req);
      return answer(req);
    },
  };
  const ORIGINAL = 'export const PI = 3.14;\n\nexport function add(a: number, b: number) {\n  return a + b;\n}\n\nexport const NAME = "math";\n';
  const EDIT = {
    file_path: 'math.ts',
    old_content: 'export const PI = 3.14;\n\nexport function add(a: number, b: number) {\n  return a + b;\n}\n\nexport const NAME = "math";',
    new_content: 'export const PI = Math.PI;\n\nexport function add(a: number, b: number) {\n  return a + b;\n}\n\nexport const NAME = "geometry";\nexport const VERSION = 2;',
  };
  const file = () => readFileSync(join(root, 'math.ts'), 'utf8');
  const run = async (name: string, args: unknown) => {
    const dispatcher = new ToolDispatcher(registry, approvalGate(registry, () => 'semi-auto'));
    const ctx = toolContext({ workspaceRoot: root, ui });
    await dispatcher.dispatch([{ id: 'r', name: 'read_file', arguments: JSON.stringify({ file_path: 'math.ts' }) }], ctx);
    const [result] = await dispatcher.dispatch([{ id: 'c', name, arguments: JSON.stringify(args) }], ctx);
    return result!;
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-hunks-'));
    writeFileSync(join(root, 'math.ts'), ORIGINAL);
    asked.length = 0;
    ended.length = 0;
    answer = () => ({ action: 'allow' });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('an edit asks with the whole proposal: the file now and after the edit, in two hunks', async () => {
    answer = () => ({ action: 'deny' });
    await run('edit_file', EDIT);
    const proposed = asked[0]!.proposed!;
    assert.equal(proposed.path, join(root, 'math.ts'));
    assert.equal(proposed.before, ORIGINAL);
    assert.equal(proposed.after, ORIGINAL.replace('3.14', 'Math.PI').replace('"math";', '"geometry";\nexport const VERSION = 2;'));
    assert.equal(changeHunks(proposed.before, proposed.after).length, 2);
    assert.match(asked[0]!.diff!, /\+export const PI = Math\.PI;/, 'the diff for the chat card and terminals stays');
  });

  it('accepting hunk 1 and rejecting hunk 2 writes exactly hunk 1; the result names hunk 2 with its lines and content', async () => {
    answer = () => ({ action: 'partial', acceptedHunks: [0] });
    const result = await run('edit_file', EDIT);
    assert.equal(result.ok, true, result.output);
    assert.equal(file(), ORIGINAL.replace('3.14', 'Math.PI'));
    assert.match(result.output, /1 of 2 hunks were applied \(hunk 1\)/);
    assert.match(result.output, /Rejected hunk 2 of 2: original line 7, which your edit would have replaced by proposed lines 7–8/);
    assert.match(result.output, /-export const NAME = "math";\n\+export const NAME = "geometry";\n\+export const VERSION = 2;/);
    assert.doesNotMatch(result.output, /Rejected hunk 1/);
    assert.match(result.summary, /rejected 1 of 2 hunks/);
    assert.deepEqual(ended.at(-1)!.change, { path: join(root, 'math.ts'), before: ORIGINAL, after: file() }, 'the front end learns what changed');
  });

  it('every hunk accepted is a plain edit; none accepted leaves the file and tells the model all were rejected', async () => {
    answer = () => ({ action: 'partial', acceptedHunks: [1, 0, 0] });
    const all = await run('edit_file', EDIT);
    assert.equal(all.ok, true);
    assert.doesNotMatch(all.output, /Rejected hunk/);
    assert.match(file(), /Math\.PI[\s\S]*VERSION = 2/);

    writeFileSync(join(root, 'math.ts'), ORIGINAL);
    answer = () => ({ action: 'partial', acceptedHunks: [] });
    const none = await run('edit_file', EDIT);
    assert.equal(none.errorKind, 'rejected');
    assert.match(none.output, /rejected all 2 hunks, so the file is unchanged/);
    assert.equal(file(), ORIGINAL);
  });

  it('a file that changed after the review is not written: the verdict no longer fits', async () => {
    answer = () => {
      // Same size and time stamp: only the content check can notice the change.
      const { atime, mtime } = statSync(join(root, 'math.ts'));
      writeFileSync(join(root, 'math.ts'), ORIGINAL.replace('return a + b;', 'return b + a;'));
      utimesSync(join(root, 'math.ts'), atime, mtime);
      return { action: 'partial', acceptedHunks: [0] };
    };
    const result = await run('edit_file', EDIT);
    assert.equal(result.ok, false);
    assert.match(result.output, /changed after the user reviewed this edit/);
    assert.match(file(), /return b \+ a;/);
    assert.doesNotMatch(file(), /Math\.PI/);
  });

  it('a CRLF file keeps its line endings when only some hunks are applied', async () => {
    writeFileSync(join(root, 'math.ts'), ORIGINAL.replace(/\n/g, '\r\n'));
    answer = () => ({ action: 'partial', acceptedHunks: [1] });
    const result = await run('edit_file', EDIT);
    assert.equal(result.ok, true, result.output);
    assert.equal(file(), ORIGINAL.replace('"math";', '"geometry";\nexport const VERSION = 2;').replace(/\n/g, '\r\n'));
  });

  it('write_file asks with the new file as the proposal (empty before)', async () => {
    answer = () => ({ action: 'allow' });
    const result = await run('write_file', { file_path: 'notes.md', content: '# Notes\n' });
    assert.equal(result.ok, true);
    assert.deepEqual(asked[0]!.proposed, {
      path: join(root, 'notes.md'),
      before: '',
      after: '# Notes\n',
      hunks: [{ index: 0, beforeStart: 0, afterStart: 0, removed: [], added: ['# Notes\n'] }],
      creates: true,
    });
    assert.match(asked[0]!.diff!, /\+# Notes/);
    assert.deepEqual(result.change, { path: join(root, 'notes.md'), before: '', after: '# Notes\n' });
  });
});
