import { harnessTools } from './harness-tools';
import { readFileTool } from './read-file';
import { ToolRegistry } from './registry';

/** The registry every agent starts from: workspace tools and the harness's own tools. */
export function createBuiltinRegistry(): ToolRegistry {
  const registry = new ToolRegistry().register(readFileTool);
  for (const tool of harnessTools()) registry.register(tool);
  return registry;
}
