import { searchTool } from './search';
import type { Tool } from './tool';

/** The search tools (text through ripgrep, structural through ast-grep), for the builtin registry. */
export function searchTools(): Tool[] {
  return [searchTool];
}
