import { StagedCompactor } from '../context/compaction/staged-compactor';
import type { AgentHooks } from '../hooks/agent-hooks';
import { composeLifecycles } from '../hooks/tool-hooks';
import type { ModelRoles } from '../llm/model-roles';
import type { Message } from '../messages';
import { sectionText } from '../template-text';
import { subagentSystemPrompt, subagentTools, type SubagentSpec } from '../subagents/specs';
import type { SubagentRunner } from '../subagents/subagent-manager';
import { TodoStore } from '../todos/todo-store';
import type { UICallback } from '../ui';
import { Agent } from './agent';
import { outputEconomy } from './output-economy';
import { fullCompactor } from './session-compaction';
import type { SessionServices } from './session-services';

/** What stands in for a subagent's answer when it could not run (the parent model reads it). */
const TEXTS = 'agent/texts.md';

/**
 * How the session's SubagentManager runs one subagent: SubagentStart hooks first, then a fresh agent
 * (or one restored from its history) with the session's services, its turn shown to the user quietly.
 */
export function subagentRunner(services: SessionServices, roles: ModelRoles, ui: UICallback): SubagentRunner {
  return async (spec, task, run) => {
    // SubagentStart hooks may refuse the spawn (the model reads why) or give the subagent context.
    const start = await services.hooks.subagentStart(spec.name, run.agentId, run.signal);
    if (start.refused !== undefined) return { status: 'failed', summary: sectionText(TEXTS, 'subagent_refused', { NAME: spec.name, REASON: start.refused }), history: run.history };
    const hooks = services.hooks.forSubagent(spec.name, run.agentId, start.context);
    const agent = buildSubagent(spec, run.model ? roles.withModelOverride(run.model) : roles, services, hooks);
    if (Array.isArray(run.history)) agent.restore(run.history as Message[]);
    const result = await agent.runTurn(task, subagentUI(ui), run.signal);
    const status = result.status === 'completed' ? (result.taskStatus === 'failure' ? 'failed' : 'completed') : result.status === 'stopped' ? 'stopped' : 'failed';
    const summary = result.status === 'failed' ? sectionText(TEXTS, 'subagent_model_failed', { ERROR: result.error.message }) : result.text;
    return { status, summary, history: [...agent.messages] };
  };
}

/** One subagent with its spec's tools and the session's shared services; built anew for every run. */
function buildSubagent(spec: SubagentSpec, roles: ModelRoles, services: SessionServices, hooks: AgentHooks): Agent {
  const allowed = new Set(subagentTools(spec));
  const economy = outputEconomy(services, allowed.has('spawn_subagent'));
  return new Agent({
    // The Planner (planModeSafe) writes its plan file and nothing else, in every mode.
    identity: { name: spec.name, isSubagent: true, allowedTools: allowed, ...(spec.planModeSafe ? { planFilesOnly: true } : {}) },
    workspaceRoot: services.workspaceRoot,
    model: {
      roles,
      systemPrompt: { stable: subagentSystemPrompt(spec, services.vars), dynamic: services.environment },
      promptVars: services.vars,
      maxIterations: spec.maxIterations,
      thinkingLevel: 'off',
    },
    tools: {
      registry: services.registry,
      allowedTools: allowed,
      // Subagents never share the main agent's todo list.
      todos: new TodoStore(),
      subagents: spec.canSpawn ? services.manager?.launcherFor(spec) : undefined,
      // Its commands are the session's processes.
      host: services.host,
      processes: services.processes,
      // Its own read times (it must read before editing), but the same per-file locks.
      files: services.files.sharingLocks(),
      lifecycle: composeLifecycles(hooks.tools, services.lifecycle),
      readableDirs: economy.readableDirs,
    },
    context: {
      shapeResult: economy.shapeResult,
      compaction: new StagedCompactor({ fullCompaction: fullCompactor(services, roles, spec.name).stage }).hook,
    },
    // A subagent's calls count toward the session's cost.
    session: { cost: services.cost, hooks },
  });
}

/** A subagent works quietly: only what needs the user (approvals, questions) and notices pass through. */
function subagentUI(parent: UICallback): UICallback {
  return {
    onTextDelta() {},
    onToolStart() {},
    onToolEnd() {},
    onNotice: (text, level) => parent.onNotice?.(text, level),
    onRetry: (info) => parent.onRetry?.(info),
    requestApproval: parent.requestApproval ? (req, signal) => parent.requestApproval!(req, signal) : undefined,
    askUser: parent.askUser ? (q, signal) => parent.askUser!(q, signal) : undefined,
  };
}
