import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NotebookCell, NotebookCellEdit, NotebookPort } from '../../../../src/core/notebook-port';
import { notebookEditTool, planCellEdit } from '../../../../src/core/tools/notebook-edit';
import { ToolError } from '../../../../src/core/tools/tool';
import { toolContext } from '../../../helpers/tool-context';

const CELLS: NotebookCell[] = [
  { kind: 'markdown', language: 'markdown', source: '# Analysis' },
  { kind: 'code', language: 'python', source: 'print(1 + 1)' },
];

/** The notebook as a list in memory; records the edits it was asked for. */
function memoryNotebooks(cells: NotebookCell[]): NotebookPort & { edits: NotebookCellEdit[] } {
  const edits: NotebookCellEdit[] = [];
  return {
    edits,
    cells: async () => [...cells],
    editCell: async (_file, edit) => {
      edits.push(edit);
      if (edit.action === 'insert') cells.splice(edit.index, 0, edit.cell);
      else if (edit.action === 'replace') cells.splice(edit.index, 1, edit.cell);
      else cells.splice(edit.index, 1);
      return [...cells];
    },
  };
}

describe('notebook_edit', () => {
  it('fills in the kind and language: the replaced cell\'s, else code in the notebook\'s language', () => {
    assert.deepEqual(planCellEdit(CELLS, { file_path: 'n.ipynb', cell_index: 0, source: '# Results' }, 'n.ipynb'), {
      action: 'replace', index: 0, cell: { kind: 'markdown', language: 'markdown', source: '# Results' },
    });
    assert.deepEqual(planCellEdit(CELLS, { file_path: 'n.ipynb', action: 'insert', cell_index: 2, source: 'x = 1' }, 'n.ipynb'), {
      action: 'insert', index: 2, cell: { kind: 'code', language: 'python', source: 'x = 1' },
    });
    assert.deepEqual(planCellEdit(CELLS, { file_path: 'n.ipynb', action: 'delete', cell_index: 1 }, 'n.ipynb'), { action: 'delete', index: 1 });
  });

  it('refuses an index past the end (insert may append) and a missing source', () => {
    assert.throws(() => planCellEdit(CELLS, { file_path: 'n.ipynb', cell_index: 2, source: 'x' }, 'n.ipynb'), (e: ToolError) => /out of range.*valid: 0–1/.test(e.message));
    assert.doesNotThrow(() => planCellEdit(CELLS, { file_path: 'n.ipynb', action: 'insert', cell_index: 2, source: 'x' }, 'n.ipynb'));
    assert.throws(() => planCellEdit(CELLS, { file_path: 'n.ipynb', action: 'insert', cell_index: 3, source: 'x' }, 'n.ipynb'), /out of range/);
    assert.throws(() => planCellEdit(CELLS, { file_path: 'n.ipynb', cell_index: 0 }, 'n.ipynb'), /source is required/);
  });

  it('edits through the port and answers with the notebook\'s new outline; refuses files that are not notebooks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opendev-notebook-'));
    writeFileSync(join(dir, 'n.ipynb'), '{}');
    writeFileSync(join(dir, 'n.py'), '');
    const notebooks = memoryNotebooks([...CELLS]);
    const ctx = toolContext({ workspaceRoot: dir, host: { notebooks } });
    const result = await notebookEditTool.run({ file_path: 'n.ipynb', action: 'insert', cell_index: 1, source: 'import pandas as pd\ndf = pd.read_csv("x.csv")' }, ctx);
    assert.equal(result.ok, true);
    assert.equal(result.summary, '✓ Inserted code cell 1 of n.ipynb');
    assert.match(result.output, /3 cells now\):\n\[0\] markdown: # Analysis\n\[1\] code: import pandas as pd\n\[2\] code: print\(1 \+ 1\)/);
    await assert.rejects(notebookEditTool.run({ file_path: 'n.py', cell_index: 0, source: 'x' }, ctx), /not a notebook/);
    assert.equal(notebooks.edits.length, 1);
  });
});
