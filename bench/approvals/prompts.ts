// Approval prompts at Semi-Auto, counted through the real approval gate with and without the
// sandbox: the gate's `before` step judges every call as a session would (rules, danger, level,
// boundary), and a UI that counts each question and answers "allow". The calls are judged, not
// run, so no command runs outside the sandbox here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { approvalGate } from '../../src/core/safety/approval-gate';
import { createBuiltinRegistry } from '../../src/core/tools/builtin-tools';
import type { ApprovalRequest, UICallback } from '../../src/core/ui';
import type { ScriptedToolCall } from '../../test/fixtures/fake-provider';
import { LONG_SESSION } from '../../test/fixtures/long-session/script';
import { createLongSessionWorkspace } from '../../test/fixtures/long-session/workspace';
import { toolContext } from '../../test/helpers/tool-context';
import { COMMAND_TASK, createCommandTaskWorkspace } from './command-task';

export interface PromptCount {
  calls: number;
  commands: number;
  /** Questions put to the user. */
  asked: ApprovalRequest[];
  /** Refused without a question (danger rules). */
  refused: number;
}

export interface PromptReplay {
  name: string;
  without: PromptCount;
  with: PromptCount;
}

/** Both replays: the 40-iteration session of bench/context and the command-heavy task. */
export async function countPrompts(): Promise<PromptReplay[]> {
  const longSession = LONG_SESSION.flatMap((task) => task.steps);
  const temp = mkdtempSync(join(tmpdir(), 'opendev-bench-approvals-'));
  const longRoot = createLongSessionWorkspace();
  try {
    const taskRoot = createCommandTaskWorkspace(mkdtempSync(join(temp, 'task-')));
    return [
      { name: `40-iteration session (bench/context)`, without: await replay(longSession, longRoot, false), with: await replay(longSession, longRoot, true) },
      { name: 'command-heavy task', without: await replay(COMMAND_TASK, taskRoot, false), with: await replay(COMMAND_TASK, taskRoot, true) },
    ];
  } finally {
    rmSync(longRoot, { recursive: true, force: true });
    rmSync(temp, { recursive: true, force: true });
  }
}

async function replay(calls: readonly ScriptedToolCall[], workspaceRoot: string, sandboxed: boolean): Promise<PromptCount> {
  const registry = createBuiltinRegistry();
  const gate = approvalGate(registry, () => 'semi-auto', { sandboxed: async () => sandboxed });
  const asked: ApprovalRequest[] = [];
  const ui: UICallback = {
    onTextDelta() {},
    onToolStart() {},
    onToolEnd() {},
    requestApproval: async (request) => {
      asked.push(request);
      return { action: 'allow' };
    },
  };
  const ctx = toolContext({ workspaceRoot, ui });
  let refused = 0;
  let id = 0;
  for (const call of calls) {
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    const verdict = await gate.before!({ id: `call_${++id}`, name: call.name, arguments: args }, ctx);
    if (!verdict.proceed) refused++;
  }
  return { calls: calls.length, commands: calls.filter((c) => c.name === 'run_command').length, asked, refused };
}
