import type { BeforeCompaction } from '../context/compaction/pre-compact-hook';
import type { HostPorts } from '../host';
import type { SessionHooks } from '../hooks/session-hooks';
import type { CostTracker } from '../llm/cost-tracker';
import type { ProcessManager } from '../process/process-manager';
import type { SubagentManager } from '../subagents/subagent-manager';
import type { FileTimeTracker } from '../tools/file-time-tracker';
import type { ToolRegistry } from '../tools/registry';
import type { ToolLifecycle } from '../tools/tool-lifecycle';

/** What the main agent and its subagents share for a session. */
export interface SessionServices {
  sessionId: string;
  /** `OPENDEV_HOME/scratch/<session>/`: offloaded tool outputs, compaction archives (created on first use). */
  scratchDir: string;
  /** PreCompact hooks before every full compaction (main agent and subagents). */
  preCompact: BeforeCompaction;
  registry: ToolRegistry;
  workspaceRoot: string;
  vars: Record<string, string>;
  environment: string;
  cost: CostTracker;
  host?: HostPorts;
  processes: ProcessManager;
  files: FileTimeTracker;
  /** The approval step before every call; one per session, so "always allow" holds for subagents too. */
  lifecycle: ToolLifecycle;
  /** The user's hooks (settings read once); each agent gets its own set, its tool hooks before the approval step. */
  hooks: SessionHooks;
  manager?: SubagentManager;
  /** The folders of folder-layout skills and the workspace's other folders: every agent may read their files. */
  skillDirs?: readonly string[];
}
