import type { HostPorts } from '../host';
import { editorTools } from './editor-tools';
import { fileTools } from './file-tools';
import { harnessTools } from './harness-tools';
import { processTools } from './process-tools';
import { readFileTool } from './read-file';
import { ToolRegistry } from './registry';
import { searchTools } from './search-tools';
import { visionPdfTools } from './vision-pdf-tools';
import { webTools } from './web-tools';
import { WebSession } from '../web/web-session';

/**
 * The registry every agent starts from: workspace tools (files, search, processes), the harness's
 * own, and the editor's (symbols, notebooks) when the host has the ports they run on; the web
 * and screenshot tools share `web` (the session's browser), a new one when none is given.
 */
export function createBuiltinRegistry(host?: HostPorts, web: WebSession = new WebSession()): ToolRegistry {
  const registry = new ToolRegistry().register(readFileTool);
  for (const tool of [...fileTools(), ...searchTools(), ...processTools(), ...harnessTools(), ...visionPdfTools(web), ...editorTools(host), ...webTools(host, web)]) registry.register(tool);
  return registry;
}
