// One row of the protocol table's "exit 2 effect", checked through the real agent: a hook of
// `event` that prints a marker on stderr and exits 2, then where the marker went (the model's
// requests, the user's notices, or nowhere) and whether the action was blocked.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Message } from '../../../../src/core/messages';
import { FakeProvider, type RecordedRequest } from '../../../fixtures/fake-provider';
import { agentOn, firstTimeOnly, hookWorkspace, logInput, recordingUI, requestText, systemOf } from '../../../helpers/hook-workspace';

type Destination = 'model' | 'user' | 'nowhere';

/** Where the protocol table sends exit 2's stderr, per event (SubagentStart: our divergence, to the model). */
const STDERR_GOES_TO: Record<string, Destination> = {
  PreToolUse: 'model',
  PostToolUse: 'model',
  PostToolUseFailure: 'model',
  Stop: 'model',
  SubagentStop: 'model',
  SubagentStart: 'model',
  UserPromptSubmit: 'user',
  PreCompact: 'user',
  SessionStart: 'user',
  SessionEnd: 'user',
  Notification: 'nowhere',
};

const isExplorer = (req: RecordedRequest) => /You are Code-Explorer/.test(systemOf(req));

export async function exitTwoEndToEnd(event: string, canBlock: boolean): Promise<void> {
  const destination = STDERR_GOES_TO[event];
  assert.ok(destination, `no end-to-end scenario for ${event}`);
  const marker = `stderr-of-${event}`;
  const ws = hookWorkspace();
  // Stop and SubagentStop block once (a hook that always blocks is bounded, tested elsewhere).
  const once = event === 'Stop' || event === 'SubagentStop' ? `${firstTimeOnly('blocked-once')}; ` : '';
  ws.settings({ [event]: [{ hooks: [{ type: 'command', command: `${logInput}; ${once}echo "${marker}" >&2; exit 2` }] }] });
  const fake = new FakeProvider({ responder: (req) => ({ text: isExplorer(req) ? 'explored' : 'done' }) });
  await fake.start();
  const ui = recordingUI({ requestApproval: async () => ({ action: 'allow' }) });
  try {
    const agent = await agentOn(ws, fake, event === 'Notification' ? { approvalLevel: 'manual' } : {});
    let blocked: boolean;
    switch (event) {
      case 'PreToolUse':
      case 'PostToolUse':
      case 'Notification': {
        fake.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'touch ran.txt' } }] });
        await agent.runTurn('touch it', ui);
        blocked = !existsSync(join(ws.workspace, 'ran.txt'));
        break;
      }
      case 'PostToolUseFailure': {
        fake.enqueue({ toolCalls: [{ name: 'read_file', arguments: { file_path: 'missing.txt' } }] });
        await agent.runTurn('read it', ui);
        blocked = false; // the tool already failed: nothing left to block
        break;
      }
      case 'UserPromptSubmit': {
        const r = await agent.runTurn('hello', ui);
        blocked = r.status === 'blocked' && fake.requests.length === 0;
        break;
      }
      case 'SessionStart': {
        const r = await agent.runTurn('hello', ui);
        blocked = r.status !== 'completed';
        break;
      }
      case 'Stop': {
        fake.enqueue({ text: 'first answer' });
        const r = await agent.runTurn('answer', ui);
        blocked = r.text === 'done' && fake.requests.length === 2; // it went on after "first answer"
        break;
      }
      case 'SubagentStart':
      case 'SubagentStop': {
        fake.enqueue({ toolCalls: [{ name: 'spawn_subagent', arguments: { subagent_type: 'Code-Explorer', task: 'look' } }] });
        await agent.runTurn('explore', ui);
        const explorerCalls = fake.requests.filter(isExplorer).length;
        blocked = event === 'SubagentStart' ? explorerCalls === 0 : explorerCalls === 2;
        break;
      }
      case 'PreCompact': {
        agent.restore(longConversation());
        const r = await agent.compact('');
        blocked = r.status === 'skipped';
        if (r.status === 'skipped') ui.onNotice?.(r.reason, 'warning'); // /compact shows its reason to the user
        break;
      }
      case 'SessionEnd': {
        await agent.runTurn('hello', ui);
        await agent.dispose();
        blocked = false;
        break;
      }
      default:
        throw new Error(`no scenario for ${event}`);
    }
    await agent.dispose();

    assert.ok(ws.inputs().some((i) => i.hook_event_name === event), `the ${event} hook ran`);
    assert.equal(blocked, canBlock, `${event}: blocked`);
    const toModel = fake.requests.some((r) => requestText(r).includes(marker));
    const toUser = ui.notices.some((n) => n.text.includes(marker));
    assert.equal(toModel, destination === 'model', `${event}: stderr reaches the model (${JSON.stringify(ui.notices)})`);
    assert.equal(toUser, destination === 'user', `${event}: stderr reaches the user (${JSON.stringify(ui.notices)})`);
  } finally {
    await fake.stop();
  }
}

/** Enough turns for /compact to have a middle to summarise. */
function longConversation(): Message[] {
  const messages: Message[] = [];
  for (let i = 0; i < 20; i++) {
    messages.push({ role: 'user', content: `question ${i}: ${'context '.repeat(40)}` });
    messages.push({ role: 'assistant', content: `answer ${i}: ${'detail '.repeat(40)}`, toolCalls: [] });
  }
  return messages;
}
