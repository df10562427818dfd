import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { NotebookCell, NotebookCellEdit, NotebookPort } from '../core/notebook-port';

/**
 * notebook_edit's port on VS Code's notebook API: the notebook is opened through its serializer
 * (the built-in ipynb one), edited as cells and saved. A notebook with unsaved changes of the
 * user's is never touched.
 */
export function vscodeNotebookPort(): NotebookPort {
  return {
    async cells(file) {
      const notebook = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
      return notebook.getCells().map(toCell);
    },

    async editCell(file, edit) {
      const uri = vscode.Uri.file(file);
      const notebook = await vscode.workspace.openNotebookDocument(uri);
      if (notebook.isDirty) throw new Error(`${basename(file)} has unsaved changes in the editor; ask the user to save or revert them first`);
      const workspaceEdit = new vscode.WorkspaceEdit();
      workspaceEdit.set(uri, [notebookEdit(notebook, edit)]);
      if (!(await vscode.workspace.applyEdit(workspaceEdit))) throw new Error('VS Code refused the edit; nothing was changed');
      if (!(await notebook.save())) throw new Error(`the cell was changed in the editor but ${basename(file)} could not be saved; it is still open there, unsaved`);
      return notebook.getCells().map(toCell);
    },
  };
}

function notebookEdit(notebook: vscode.NotebookDocument, edit: NotebookCellEdit): vscode.NotebookEdit {
  const at = new vscode.NotebookRange(edit.index, edit.index + 1);
  switch (edit.action) {
    case 'insert':
      return vscode.NotebookEdit.insertCells(edit.index, [cellData(edit.cell)]);
    case 'delete':
      return vscode.NotebookEdit.deleteCells(at);
    case 'replace': {
      const data = cellData(edit.cell);
      // The same kind of cell keeps its metadata (id, tags); its outputs went stale with the source.
      const old = notebook.cellAt(edit.index);
      if (toCell(old).kind === edit.cell.kind) data.metadata = { ...old.metadata };
      return vscode.NotebookEdit.replaceCells(at, [data]);
    }
  }
}

function cellData(cell: NotebookCell): vscode.NotebookCellData {
  const kind = cell.kind === 'markdown' ? vscode.NotebookCellKind.Markup : vscode.NotebookCellKind.Code;
  return new vscode.NotebookCellData(kind, cell.source, cell.language);
}

function toCell(cell: vscode.NotebookCell): NotebookCell {
  return {
    kind: cell.kind === vscode.NotebookCellKind.Markup ? 'markdown' : 'code',
    language: cell.document.languageId,
    source: cell.document.getText(),
  };
}
