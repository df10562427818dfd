import { sectionText } from '../template-text';

/** The sections of `templates/mcp/texts.md`: what the model reads about MCP calls and search_tools. */
export type McpTextName =
  | 'error_unavailable'
  | 'error_disabled'
  | 'error_not_allowed'
  | 'not_allowed_declined'
  | 'not_allowed_unattended'
  | 'error_unknown_tool'
  | 'error_timeout'
  | 'error_crashed'
  | 'error_interrupted'
  | 'error_protocol'
  | 'not_object'
  | 'schema_too_large'
  | 'image'
  | 'image_unsaved'
  | 'audio'
  | 'blob'
  | 'resource_link'
  | 'empty'
  | 'search_found'
  | 'search_none'
  | 'search_unavailable'
  | 'search_not_allowed';

const FILE = 'mcp/texts.md';

/** A section rendered with `vars`; a missing template degrades to the variables themselves, never to nothing. */
export function mcpText(name: McpTextName, vars: Record<string, string> = {}): string {
  return sectionText(FILE, name, vars);
}

/** "1.4 KB", for notes about content that is not shown. */
export { formatBytes as byteSize } from '../format-bytes';
