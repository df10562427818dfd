// What a folder's configuration asks to do with the user's authority, in words: the one list the
// trust question, `opendev trust --show`, the -p notice and VS Code's trust card show. Each loader
// decides what it ignores for an untrusted folder; this only gathers their reports.
import { relative } from 'node:path';
import type { IgnoredProjectSetting } from '../config/untrusted-project';
import { loadHooksConfig } from '../hooks/config';
import { loadMcpConfig } from '../mcp/mcp-config';
import { commandLine } from '../mcp/mcp-trust-store';
import { projectRules } from '../safety/permission-store';
import type { PermissionRule } from '../safety/permission-rule';

export interface TrustRequest {
  /** "send requests (with your API key) to http://…", "run 2 hooks (SessionStart)". */
  what: string;
  /** Where it is asked for: a workspace-relative file, or a settings scope. */
  source: string;
}

export interface TrustRequestInput {
  home: string;
  workspaceRoot: string;
  /** What the layered settings left out of the untrusted project layers (LayeredSettings.untrusted). */
  settings: readonly IgnoredProjectSetting[];
}

export function projectTrustRequests(input: TrustRequestInput): TrustRequest[] {
  const where = (file: string) => (file.startsWith(input.workspaceRoot) ? relative(input.workspaceRoot, file) : file);
  const out: TrustRequest[] = input.settings.map((s) => ({ what: s.what, source: where(s.source) }));
  for (const h of loadHooksConfig({ workspaceRoot: input.workspaceRoot, opendevHome: input.home, projectTrusted: false }).untrusted) {
    const what = h.disablesAll ? 'turn off every hook, your own included (disableAllHooks)' : `run ${h.count === 1 ? 'a hook' : `${h.count} hooks`} (${h.events.join(', ')})`;
    out.push({ what, source: where(h.file) });
  }
  for (const rule of projectRules(input.workspaceRoot, false).untrusted) out.push({ what: `allow ${describeRule(rule)} without asking`, source: '.opendev/permissions.json' });
  for (const server of loadMcpConfig({ home: input.home, workspaceRoot: input.workspaceRoot, env: {} }).servers) {
    if (server.source === 'user' || !server.enabled) continue;
    out.push({ what: `start MCP server "${server.name}" (\`${commandLine(server.config)}\`) without asking`, source: where(server.file) });
  }
  return out;
}

/** The list as lines for a terminal or a notice, with the closing hint of the host. */
export function formatTrustRequests(requests: readonly TrustRequest[], opening: string, hint?: string): string {
  return [opening, ...requests.map((r) => `  - ${r.what} (${r.source})`), ...(hint ? [hint] : [])].join('\n');
}

function describeRule(rule: PermissionRule): string {
  const tool = rule.tool === undefined ? '' : `${rule.tool} `;
  if (rule.pattern === undefined) return `every ${rule.tool ?? 'command'} call`;
  return `${tool}\`${rule.pattern}\``;
}
