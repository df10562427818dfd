import type { HostPorts } from '../host';
import { findReferencingSymbolsTool } from './find-referencing-symbols';
import { findSymbolTool } from './find-symbol';
import { insertAfterSymbolTool, insertBeforeSymbolTool } from './insert-at-symbol';
import { notebookEditTool } from './notebook-edit';
import { renameSymbolTool } from './rename-symbol';
import { replaceSymbolBodyTool } from './replace-symbol-body';
import type { Tool } from './tool';

/**
 * The tools that need the editor: the symbol tools run on its language servers, notebook_edit on
 * its notebook API. A host without those ports (the CLI) does not offer them at all, so the model
 * never sees a tool that could only fail.
 */
export function editorTools(host: HostPorts | undefined): Tool[] {
  const tools: Tool[] = [];
  if (host?.symbols) {
    tools.push(findSymbolTool, findReferencingSymbolsTool, renameSymbolTool, replaceSymbolBodyTool, insertBeforeSymbolTool, insertAfterSymbolTool);
  }
  if (host?.notebooks) tools.push(notebookEditTool);
  return tools;
}
