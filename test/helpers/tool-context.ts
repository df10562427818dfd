import type { ToolExecutionContext } from '../../src/core/tools/tool';
import { silentUI } from '../../src/core/ui';

/** A main-agent tool context for unit tests; override what a test cares about. */
export function toolContext(overrides: Partial<ToolExecutionContext> & { workspaceRoot: string }): ToolExecutionContext {
  return {
    signal: new AbortController().signal,
    ui: silentUI,
    agent: { name: 'main', isSubagent: false },
    todos: { list: () => [], hasOpen: () => false },
    mode: { mode: 'normal', autoApproveEdits: false },
    completion: {},
    ...overrides,
  };
}
