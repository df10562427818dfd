import type { ToolRegistry } from '../tools/registry';
import type { UICallback } from '../ui';
import type { FirstAnswerGate } from './first-answer-gate';
import type { MainAgentOptions } from './main-agent-options';

/**
 * What createMainAgent has settled before it builds the session's services (sandbox, hooks, undo,
 * MCP hub): each builder takes this one object rather than the same values one by one.
 */
export interface SessionSetup {
  options: MainAgentOptions;
  sessionId: string;
  /** OPENDEV_HOME: the option's, else the environment's. */
  home: string;
  /** The option's answer, else what OPENDEV_HOME/trust.json said when the agent was built. */
  projectTrusted: boolean;
  /** The session's tool registry (skills and MCP tools join it later). */
  registry: ToolRegistry;
  /** The session's front end: the relay, where notices wait for the first turn's front end. */
  ui: UICallback;
  /** Work that waits until the first request's answer starts (or the session idles). */
  afterFirstAnswer: FirstAnswerGate;
}
