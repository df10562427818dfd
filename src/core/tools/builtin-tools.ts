import { readFileTool } from './read-file';
import { ToolRegistry } from './registry';

/** The registry every agent starts from. Later tools register here. */
export function createBuiltinRegistry(): ToolRegistry {
  return new ToolRegistry().register(readFileTool);
}
