import { batchTool } from './batch-tool';
import { editFileTool } from './edit-file';
import { listFilesTool } from './list-files';
import type { Tool } from './tool';
import { writeFileTool } from './write-file';

/**
 * The workspace file tools besides read_file (which the registry registers first, on its own),
 * plus batch_tool.
 */
export function fileTools(): Tool[] {
  return [writeFileTool, editFileTool, listFilesTool, batchTool] as Tool[];
}
