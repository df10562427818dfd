/**
 * The editor's language intelligence, as the symbol tools need it: the host asks whatever language
 * servers the user has installed (VS Code's symbol, reference and rename providers). Files are
 * absolute paths; positions are zero-based lines and UTF-16 characters, as editors count them.
 */
export interface SymbolPort {
  /** Symbols across the workspace whose name resembles `query` (the provider's own fuzzy match). */
  workspaceSymbols(query: string): Promise<WorkspaceSymbolHit[]>;
  /** The file's symbol tree (classes holding their methods…); empty when no provider knows the language. */
  documentSymbols(file: string): Promise<DocumentSymbolNode[]>;
  /** The text as the editor holds it, and whether it has changes not yet saved. */
  readDocument(file: string): Promise<{ text: string; dirty: boolean }>;
  /** Every reference to the symbol at `position`, its declaration included. */
  references(file: string, position: TextPosition): Promise<FileLocation[]>;
  /** The rename provider's edits; rejects with the provider's reason when it cannot rename there. */
  renameEdits(file: string, position: TextPosition, newName: string): Promise<FileEdit[]>;
  /**
   * Applies the edits as one workspace edit and saves every file they touch. Rejects, changing
   * nothing, when one of those files has unsaved changes in the editor. The host may show the
   * first file (without taking focus): some servers (TypeScript) check only files on screen.
   */
  applyEdits(edits: FileEdit[]): Promise<AppliedEdit>;
  /** The file's current diagnostics. */
  diagnostics(file: string): Promise<FileDiagnostic[]>;
  /**
   * Called just before a tool writes `file` to disk itself (edit_file, write_file), so that after
   * the write the editor's verdict on the new content can be awaited, as after applyEdits.
   */
  watchWrite(file: string): WriteCheck;
}

/** A file a tool is writing, watched for the language server's verdict; dispose it once read. */
export interface WriteCheck {
  /**
   * The file's diagnostics once the language server has checked what was written (at most
   * `maxWaitMs`, as for AppliedEdit); undefined when no language extension checks this file.
   */
  diagnosticsAfter(maxWaitMs: number): Promise<FileDiagnostic[] | undefined>;
  dispose(): void;
}

export interface TextPosition {
  line: number;
  character: number;
}

export interface TextRange {
  start: TextPosition;
  end: TextPosition;
}

export interface DocumentSymbolNode {
  name: string;
  /** Lower-case kind: class, method, function, property, variable… */
  kind: string;
  /** The whole declaration, body included. */
  range: TextRange;
  /** The name within it. */
  selectionRange: TextRange;
  children: DocumentSymbolNode[];
}

export interface WorkspaceSymbolHit {
  name: string;
  kind: string;
  containerName?: string;
  file: string;
  range: TextRange;
}

export interface FileLocation {
  file: string;
  range: TextRange;
}

export interface TextEdit {
  range: TextRange;
  newText: string;
}

export interface FileEdit {
  file: string;
  edits: TextEdit[];
}

export interface FileDiagnostic {
  file: string;
  range: TextRange;
  severity: 'error' | 'warning' | 'information' | 'hint';
  message: string;
  source?: string;
  code?: string;
}

/** An applied and saved edit; dispose it once its diagnostics are read. */
export interface AppliedEdit {
  /** Absolute paths of the files changed and saved. */
  files: string[];
  /**
   * The file's diagnostics once the language server has updated them after the edit, or as they
   * are after `maxWaitMs` when it says nothing (an edit that changes no diagnostic is never announced).
   */
  diagnosticsAfter(file: string, maxWaitMs: number): Promise<FileDiagnostic[]>;
  dispose(): void;
}
