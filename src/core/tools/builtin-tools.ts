import type { HostPorts } from '../host';
import type { Tool } from './tool';
import { editorTools } from './editor-tools';
import { fileTools } from './file-tools';
import { harnessTools } from './harness-tools';
import { processTools } from './process-tools';
import { readFileTool } from './read-file';
import { builtinParameters } from './builtin-parameters';
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
  const registry = new ToolRegistry();
  const prebuilt = builtinParameters();
  for (const tool of builtinTools(host, web)) registry.register(tool, prebuilt?.[tool.name]);
  return registry;
}

/** Every built-in tool the host's ports allow, in the order the model sees them. */
export function builtinTools(host: HostPorts | undefined, web: WebSession): Tool[] {
  return [readFileTool, ...fileTools(), ...searchTools(), ...processTools(), ...harnessTools(), ...visionPdfTools(web), ...editorTools(host), ...webTools(host, web)];
}
