/** What spawn_subagent asks for (the tool's validated arguments). */
export interface SubagentRequest {
  subagentType: string;
  task: string;
  model?: string;
  background: boolean;
  /** Continue an earlier subagent's conversation by its agent id. */
  resume?: string;
}

export interface SubagentOutcome {
  agentId: string;
  type: string;
  status: 'running' | 'completed' | 'failed' | 'stopped';
  /** The subagent's final answer, summarised for the parent. */
  summary: string;
}

/** The seam between the spawn tools and the machinery that runs subagents. */
export interface SubagentLauncher {
  /** Types the current agent may spawn, with their descriptions (for errors and the tool description). */
  types(): ReadonlyArray<{ name: string; description: string }>;
  /** Runs a subagent to completion, or starts it in the background and returns status "running". */
  spawn(request: SubagentRequest, signal: AbortSignal): Promise<SubagentOutcome>;
  /** The latest outcome of a subagent by id (background ones may still be running). */
  output(agentId: string): SubagentOutcome | undefined;
  /**
   * Optional: resolves with the outcome once a (background) subagent has finished, or with the
   * current outcome when `signal` aborts first; undefined for an unknown id. Lets get_subagent_output
   * block instead of the model polling it.
   */
  wait?(agentId: string, signal: AbortSignal): Promise<SubagentOutcome | undefined>;
  /**
   * Optional: the background subagents this launcher started that have finished since the last
   * call and whose result nobody has read yet (each reported once), for the executor's
   * "subagent completed" signal.
   */
  collectFinished?(): SubagentOutcome[];
  /**
   * Optional: the write-capable tools a type would get (empty when it only reads, or is the plan-mode
   * Planner). Plan mode refuses to spawn a type with any.
   */
  writeToolsOf?(type: string): string[];
}
