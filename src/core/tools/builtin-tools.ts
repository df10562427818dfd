import { fileTools } from './file-tools';
import { harnessTools } from './harness-tools';
import { processTools } from './process-tools';
import { readFileTool } from './read-file';
import { ToolRegistry } from './registry';
import { searchTools } from './search-tools';

/** The registry every agent starts from: workspace tools (files, search, processes) and the harness's own. */
export function createBuiltinRegistry(): ToolRegistry {
  const registry = new ToolRegistry().register(readFileTool);
  for (const tool of [...fileTools(), ...searchTools(), ...processTools(), ...harnessTools()]) registry.register(tool);
  return registry;
}
