import type { ApprovalRequest } from '../core/ui';
import { clip, parseArgs } from './call-subjects';
import { wordingOf } from './tool-wordings';

/**
 * An approval's question in words ("Edit math.ts?", "Run npm test?", "Create notes.md?", "Use Read
 * graph from memory?"), from the same wordings as the tool cards. Only a question about the call
 * itself is worded here; the others (a doom loop, a blocked host, an MCP server to start, a hook's
 * question) keep the title their asker wrote. The gate's reason follows in brackets.
 */
export function approvalHeadline(request: Pick<ApprovalRequest, 'kind' | 'toolName' | 'title' | 'args' | 'aboutCall' | 'reason' | 'proposed'>): string {
  if (request.kind !== 'tool' || !request.aboutCall) return request.title;
  const ask = wordingOf(request.toolName).ask(parseArgs(request.args), request.proposed?.creates === true);
  return clip(request.reason ? `${ask} (${request.reason})` : ask, 300);
}
