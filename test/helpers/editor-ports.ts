import type { HostPorts } from '../../src/core/host';
import type { NotebookPort } from '../../src/core/notebook-port';
import type { SymbolPort } from '../../src/core/symbol-port';

const notHere = () => Promise.reject(new Error('no editor in this test'));

/**
 * Host ports as an editor would offer them, for tests and benchmarks that need the editor's tools
 * registered (their schemas) but never run them: every call rejects.
 */
export function editorHostPorts(): HostPorts {
  const symbols: SymbolPort = {
    workspaceSymbols: notHere,
    documentSymbols: notHere,
    readDocument: notHere,
    references: notHere,
    renameEdits: notHere,
    applyEdits: notHere,
    diagnostics: notHere,
    watchWrite: () => ({ diagnosticsAfter: notHere, dispose: () => {} }),
  };
  const notebooks: NotebookPort = { cells: notHere, editCell: notHere };
  return { symbols, notebooks };
}

/** The tools only an editor host offers (VS Code), absent from the CLI's schema. */
export const EDITOR_ONLY_TOOLS = [
  'find_symbol',
  'find_referencing_symbols',
  'rename_symbol',
  'replace_symbol_body',
  'insert_before_symbol',
  'insert_after_symbol',
  'notebook_edit',
] as const;
