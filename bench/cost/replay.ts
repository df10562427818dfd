// Plays scripted user tasks through the real agent (createMainAgent, a session recorder as the
// hosts keep one) against the fake provider with given settings, and tells every model call by the
// purpose the agent gave it (ModelRoles' observer), never by its text.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMainAgent } from '../../src/core/agent/create-agent';
import type { MainAgentOptions } from '../../src/core/agent/main-agent-options';
import type { EffectiveValues } from '../../src/core/config/merge-settings';
import { CALL_PURPOSES, type CallPurpose } from '../../src/core/llm/call-purpose';
import type { ObservedCall } from '../../src/core/llm/observed-provider';
import { SessionRecorder } from '../../src/core/session/session-recorder';
import { SessionStore } from '../../src/core/session/session-store';
import type { UICallback } from '../../src/core/ui';
import type { FakeProvider } from '../../test/fixtures/fake-provider';
import { longSessionResponder, type SessionTask } from '../../test/fixtures/long-session/script';

/** Requests and tokens (prompt + output, as the API reports them) of one kind of call. */
export interface KindTally {
  requests: number;
  tokens: number;
}

export interface Replay {
  byKind: Record<CallPurpose, KindTally>;
  /** What the fake provider received, to check every request was told apart. */
  providerRequests: number;
  completed: number;
  tasks: number;
}

export interface ReplayOptions {
  tasks: readonly SessionTask[];
  workspace: string;
  /** The effective settings (defaults only: nothing from the environment or a settings file). */
  settings: EffectiveValues;
  contextWindow?: number;
}

/** The agent options the hosts take from these settings (an interactive session: the CLI REPL or VS Code). */
function hostOptions(v: EffectiveValues): Partial<MainAgentOptions> {
  return {
    thinkingLevel: v.thinkingLevel,
    thinkingCadence: v.thinkingCadence,
    approvalLevel: v.approvalLevel,
    playbookLearning: v['playbook.learn'],
    playbookReflectEvery: v['playbook.reflectEvery'],
    episodicSummaryEvery: v['memory.summaryEvery'],
  };
}

/** Every approval the default level asks for is given, as a user following along would. */
const approvingUI: UICallback = {
  onTextDelta() {},
  onToolStart() {},
  onToolEnd() {},
  requestApproval: async () => ({ action: 'allow' }),
};

export async function replay(fake: FakeProvider, options: ReplayOptions): Promise<Replay> {
  fake.reset();
  const script = longSessionResponder(options.tasks);
  fake.setResponder(script.responder);
  const home = mkdtempSync(join(tmpdir(), 'opendev-bench-cost-'));
  const calls: ObservedCall[] = [];
  const agent = await createMainAgent({
    roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'test-key', baseUrl: fake.openaiBaseUrl, ...(options.contextWindow ? { contextWindow: options.contextWindow } : {}) } },
    workspaceRoot: options.workspace,
    home,
    ...hostOptions(options.settings),
    onModelCall: (call) => calls.push(call),
  });
  const recorder = new SessionRecorder(new SessionStore({ home }), options.workspace, undefined, { titles: options.settings.sessionTitles });
  const unfollow = recorder.follow(agent);
  let completed = 0;
  try {
    for (const [index, task] of options.tasks.entries()) {
      script.startTask(index);
      const result = await agent.runTurn(task.prompt, approvingUI);
      if (result.status === 'completed') completed++;
      await recorder.save(agent);
    }
    // Background work (a title, a reflection) counts too: wait for it before counting.
    await recorder.settled();
  } finally {
    unfollow();
    await agent.dispose();
    fake.setResponder(undefined);
  }
  return { byKind: tally(calls), providerRequests: fake.requests.length, completed, tasks: options.tasks.length };
}

function tally(calls: readonly ObservedCall[]): Record<CallPurpose, KindTally> {
  const byKind = Object.fromEntries(CALL_PURPOSES.map((p) => [p, { requests: 0, tokens: 0 }])) as Record<CallPurpose, KindTally>;
  for (const call of calls) {
    if (!call.purpose) throw new Error(`a model call without a purpose (${call.model}): every call must say why it is made`);
    byKind[call.purpose].requests += call.requests;
    byKind[call.purpose].tokens += (call.usage?.promptTokens ?? 0) + (call.usage?.outputTokens ?? 0);
  }
  return byKind;
}
