/**
 * Jupyter notebooks through the editor's notebook API (VS Code's .ipynb serializer): cells are
 * edited as cells, so the file stays valid JSON with its metadata and other cells' outputs intact.
 * Files are absolute paths; cell indexes are zero-based.
 */
export interface NotebookPort {
  /** The notebook's cells as the editor holds them. */
  cells(file: string): Promise<NotebookCell[]>;
  /** Applies one edit and saves the notebook; resolves to the cells after it. */
  editCell(file: string, edit: NotebookCellEdit): Promise<NotebookCell[]>;
}

export interface NotebookCell {
  kind: 'code' | 'markdown';
  /** The cell's language id (python, markdown…). */
  language: string;
  source: string;
}

/** Insert before `index` (= the cell count appends), replace the cell at `index` (its outputs go), or delete it. */
export type NotebookCellEdit =
  | { action: 'insert'; index: number; cell: NotebookCell }
  | { action: 'replace'; index: number; cell: NotebookCell }
  | { action: 'delete'; index: number };
