import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { AppliedEdit, DocumentSymbolNode, FileDiagnostic, FileEdit, FileLocation, SymbolPort, TextPosition, TextRange, WorkspaceSymbolHit } from '../core/symbol-port';
import { DiagnosticsWatch } from './diagnostics-watch';

/** How long a language's first symbol request may wait for its extension to start answering. */
const WARM_UP_MS = 8_000;
const WARM_UP_POLL_MS = 250;

/**
 * The symbol tools' port on VS Code's own providers (`vscode.execute*Provider`), so they work for
 * every language whose extension is installed. Edits go through `workspace.applyEdit` and are
 * saved; a file with unsaved changes of the user's is never touched.
 */
export function vscodeSymbolPort(): SymbolPort {
  // Languages that have answered once: their extension is up, an empty answer is a real one.
  const answering = new Set<string>();

  return {
    async workspaceSymbols(query) {
      const found = await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', query);
      return (found ?? []).filter((s) => s.location.uri.scheme === 'file').map(toHit);
    },

    async documentSymbols(file) {
      const uri = vscode.Uri.file(file);
      // Opening the document is what activates its language's extension.
      const doc = await vscode.workspace.openTextDocument(uri);
      const ask = async () => (await vscode.commands.executeCommand<vscode.DocumentSymbol[] | undefined>('vscode.executeDocumentSymbolProvider', uri)) ?? [];
      let symbols = await ask();
      const deadline = Date.now() + WARM_UP_MS;
      // VS Code answers "nothing" both for a file without symbols and for a provider still starting:
      // only the first request of a language waits to tell them apart.
      while (symbols.length === 0 && !answering.has(doc.languageId) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, WARM_UP_POLL_MS));
        symbols = await ask();
      }
      answering.add(doc.languageId);
      return symbols.map(toNode);
    },

    async readDocument(file) {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
      return { text: doc.getText(), dirty: doc.isDirty };
    },

    async references(file, position) {
      const found = await vscode.commands.executeCommand<vscode.Location[] | undefined>('vscode.executeReferenceProvider', vscode.Uri.file(file), toPosition(position));
      return (found ?? []).filter((l) => l.uri.scheme === 'file').map((l): FileLocation => ({ file: l.uri.fsPath, range: fromRange(l.range) }));
    },

    async renameEdits(file, position, newName) {
      const edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit | undefined>('vscode.executeDocumentRenameProvider', vscode.Uri.file(file), toPosition(position), newName);
      if (!edit) throw new Error(`no rename provider answers for ${basename(file)}`);
      const fileEdits = edit.entries().filter(([uri]) => uri.scheme === 'file');
      if (fileEdits.length < edit.size) throw new Error('the rename would also create, delete or rename files, which this tool does not do');
      return fileEdits.map(([uri, edits]) => ({ file: uri.fsPath, edits: edits.map((e) => ({ range: fromRange(e.range), newText: e.newText })) }));
    },

    applyEdits: applyAndSave,

    async diagnostics(file) {
      return vscode.languages.getDiagnostics(vscode.Uri.file(file)).map((d) => toDiagnostic(file, d));
    },

    watchWrite(file) {
      const uri = vscode.Uri.file(file);
      const watch = new DiagnosticsWatch();
      return {
        diagnosticsAfter: async (maxWaitMs) => {
          // Opening reads what was written (an open document reloads from disk by itself).
          const doc = await vscode.workspace.openTextDocument(uri);
          if (doc.languageId === 'plaintext') return undefined; // no language extension claims the file
          await keepInTab(doc);
          await watch.settled(uri, maxWaitMs);
          return vscode.languages.getDiagnostics(uri).map((d) => toDiagnostic(file, d));
        },
        dispose: () => watch.dispose(),
      };
    },
  };
}

async function applyAndSave(edits: FileEdit[]): Promise<AppliedEdit> {
  const docs = await Promise.all(edits.map((e) => vscode.workspace.openTextDocument(vscode.Uri.file(e.file))));
  const dirty = docs.filter((d) => d.isDirty).map((d) => basename(d.uri.fsPath));
  if (dirty.length > 0) throw new Error(`${dirty.join(', ')} ${dirty.length === 1 ? 'has' : 'have'} unsaved changes in the editor; ask the user to save or revert them first`);

  const watch = new DiagnosticsWatch();
  try {
    const workspaceEdit = new vscode.WorkspaceEdit();
    for (const e of edits) workspaceEdit.set(vscode.Uri.file(e.file), e.edits.map((t) => new vscode.TextEdit(toRange(t.range), t.newText)));
    if (!(await vscode.workspace.applyEdit(workspaceEdit))) throw new Error('VS Code refused the edit (the file may have changed meanwhile); nothing was changed');
    const unsaved: string[] = [];
    for (const doc of docs) if (doc.isDirty && !(await doc.save())) unsaved.push(basename(doc.uri.fsPath));
    if (unsaved.length > 0) throw new Error(`the edit was made in the editor but ${unsaved.join(', ')} could not be saved; it is still open there, unsaved`);
    if (docs[0]) await keepInTab(docs[0]);
  } catch (err) {
    watch.dispose();
    throw err;
  }
  return {
    files: docs.map((d) => d.uri.fsPath),
    diagnosticsAfter: async (file, maxWaitMs) => {
      await watch.settled(vscode.Uri.file(file), maxWaitMs);
      return vscode.languages.getDiagnostics(vscode.Uri.file(file)).map((d) => toDiagnostic(file, d));
    },
    dispose: () => watch.dispose(),
  };
}

/**
 * TypeScript checks only files that have a tab: a file without one gets a tab in the background,
 * so the user's active editor, its cursor and the focus stay where they are.
 */
async function keepInTab(doc: vscode.TextDocument): Promise<void> {
  if (isInTab(doc.uri)) return;
  await vscode.commands.executeCommand('vscode.open', doc.uri, { preview: false, preserveFocus: true, background: true });
}

function isInTab(uri: vscode.Uri): boolean {
  const key = uri.toString();
  return vscode.window.tabGroups.all.some((g) =>
    g.tabs.some((t) => {
      const input = t.input;
      if (input instanceof vscode.TabInputText) return input.uri.toString() === key;
      if (input instanceof vscode.TabInputTextDiff) return input.original.toString() === key || input.modified.toString() === key;
      return false;
    }),
  );
}

function toNode(s: vscode.DocumentSymbol): DocumentSymbolNode {
  return { name: s.name, kind: kindName(s.kind), range: fromRange(s.range), selectionRange: fromRange(s.selectionRange), children: (s.children ?? []).map(toNode) };
}

function toHit(s: vscode.SymbolInformation): WorkspaceSymbolHit {
  return { name: s.name, kind: kindName(s.kind), ...(s.containerName ? { containerName: s.containerName } : {}), file: s.location.uri.fsPath, range: fromRange(s.location.range) };
}

function toDiagnostic(file: string, d: vscode.Diagnostic): FileDiagnostic {
  const severity = (['error', 'warning', 'information', 'hint'] as const)[d.severity] ?? 'error';
  const code = typeof d.code === 'object' ? d.code.value : d.code;
  return { file, range: fromRange(d.range), severity, message: d.message, ...(d.source ? { source: d.source } : {}), ...(code !== undefined ? { code: String(code) } : {}) };
}

function kindName(kind: vscode.SymbolKind): string {
  return (vscode.SymbolKind[kind] ?? 'symbol').toLowerCase();
}

function fromRange(r: vscode.Range): TextRange {
  return { start: { line: r.start.line, character: r.start.character }, end: { line: r.end.line, character: r.end.character } };
}

function toPosition(p: TextPosition): vscode.Position {
  return new vscode.Position(p.line, p.character);
}

function toRange(r: TextRange): vscode.Range {
  return new vscode.Range(toPosition(r.start), toPosition(r.end));
}
