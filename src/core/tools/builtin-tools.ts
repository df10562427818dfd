import type { HostPorts } from '../host';
import { editorTools } from './editor-tools';
import { fileTools } from './file-tools';
import { harnessTools } from './harness-tools';
import { processTools } from './process-tools';
import { readFileTool } from './read-file';
import { ToolRegistry } from './registry';
import { searchTools } from './search-tools';

/**
 * The registry every agent starts from: workspace tools (files, search, processes), the harness's
 * own, and the editor's (symbols, notebooks) when the host has the ports they run on.
 */
export function createBuiltinRegistry(host?: HostPorts): ToolRegistry {
  const registry = new ToolRegistry().register(readFileTool);
  for (const tool of [...fileTools(), ...searchTools(), ...processTools(), ...harnessTools(), ...editorTools(host)]) registry.register(tool);
  return registry;
}
