// The hook events through the real agent (createMainAgent + the fake provider on the OpenAI wire),
// with real shell-script hooks in a temp workspace's .opendev/settings.json.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_CONSECUTIVE_STOP_BLOCKS } from '../../../../src/core/hooks';
import { allToolResults, FakeProvider, type RecordedRequest } from '../../../fixtures/fake-provider';
import { agentOn, firstTimeOnly, hookGroup, hookWorkspace, logInput, recordingUI, requestText, systemOf, userMessages, type HookWorkspace } from '../../../helpers/hook-workspace';
import { running, until } from '../../../helpers/wait';

const isExplorer = (req: RecordedRequest) => /You are Code-Explorer/.test(systemOf(req));
const json = (value: unknown) => `echo '${JSON.stringify(value)}'`;

describe('hooks through the real agent', function () {
  this.timeout(60_000);
  const fake = new FakeProvider();
  let ws: HookWorkspace;
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    // After the scripted turns, the model answers plainly (the turn can end).
    fake.setResponder(() => ({ text: 'done' }));
    ws = hookWorkspace();
  });

  it('every event fires with the documented JSON input', async () => {
    const log = [{ hooks: [{ type: 'command', command: logInput }] }];
    ws.settings(Object.fromEntries(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'SubagentStart', 'SubagentStop', 'Stop', 'SessionEnd', 'Notification'].map((e) => [e, log])));
    fake.setResponder((req) => (isExplorer(req) ? { text: 'add is in math.ts' } : { text: 'done' }));
    fake.enqueue(
      { toolCalls: [{ id: 'sp', name: 'spawn_subagent', arguments: { subagent_type: 'Code-Explorer', task: 'find add' } }] },
      { text: 'add is in math.ts' },
      { toolCalls: [{ id: 'rc', name: 'run_command', arguments: { command: 'echo hi' } }] },
      { toolCalls: [{ id: 'rf', name: 'read_file', arguments: { file_path: 'missing.ts' } }] },
      { text: 'All done.' },
    );
    const approvals: string[] = [];
    const agent = await agentOn(ws, fake, { sessionId: 'sess1234', approvalLevel: 'manual' });
    const ui = recordingUI({ requestApproval: async (req) => (approvals.push(req.toolName), { action: 'allow' }) });
    const result = await agent.runTurn('explore add, then say hi', ui);
    await agent.dispose();

    assert.equal(result.status, 'completed');
    assert.deepEqual(approvals, ['run_command']);
    const inputs = ws.inputs();
    const of = (event: string) => inputs.filter((i) => i.hook_event_name === event);
    for (const input of inputs) {
      assert.equal(input.session_id, 'sess1234', input.hook_event_name);
      assert.equal(input.cwd, ws.workspace, input.hook_event_name);
    }
    assert.deepEqual(of('SessionStart').map((i) => i.source), ['startup']);
    assert.deepEqual(of('UserPromptSubmit').map((i) => [i.prompt, i.permission_mode]), [['explore add, then say hi', 'default']]);
    const pre = of('PreToolUse').find((i) => i.tool_name === 'run_command')!;
    assert.deepEqual([pre.tool_input, pre.tool_use_id, pre.permission_mode], [{ command: 'echo hi' }, 'rc', 'default']);
    const post = of('PostToolUse').find((i) => i.tool_name === 'run_command')!;
    assert.equal(post.tool_response.success, true);
    assert.match(post.tool_response.output, /hi/);
    const failure = of('PostToolUseFailure')[0]!;
    assert.equal(failure.tool_name, 'read_file');
    assert.match(failure.error, /missing\.ts/);
    const [start] = of('SubagentStart');
    assert.equal(start!.agent_type, 'Code-Explorer');
    assert.match(start!.agent_id, /^explorer-[0-9a-f]{6}$/);
    const [subStop] = of('SubagentStop');
    assert.deepEqual([subStop!.agent_type, subStop!.agent_id, subStop!.stop_hook_active, subStop!.last_assistant_message], ['Code-Explorer', start!.agent_id, false, 'add is in math.ts']);
    // After the failed read the model is nudged once, so its final answer is the responder's.
    assert.deepEqual(of('Stop').map((i) => [i.stop_hook_active, i.last_assistant_message]), [[false, result.text]]);
    const [note] = of('Notification');
    assert.deepEqual([note!.notification_type, note!.title], ['permission_prompt', 'OpenDev']);
    assert.match(note!.message, /echo hi|run_command/);
    assert.deepEqual(of('SessionEnd').map((i) => i.reason), ['other']);
    const order = inputs.map((i) => i.hook_event_name);
    assert.ok(order.indexOf('SessionStart') < order.indexOf('UserPromptSubmit') && order.indexOf('UserPromptSubmit') < order.indexOf('PreToolUse'), order.join(' '));
    assert.ok(order.indexOf('Stop') < order.indexOf('SessionEnd'), order.join(' '));
  });

  describe('UserPromptSubmit', () => {
    it('exit 2 refuses the prompt: the model is never called, the user reads the reason, the prompt is erased', async () => {
      ws.settings({ UserPromptSubmit: hookGroup(ws.script('no-secrets', 'grep -q password && { echo "prompts must not contain passwords" >&2; exit 2; }; exit 0')) });
      const agent = await agentOn(ws, fake);
      const ui = recordingUI();
      const blocked = await agent.runTurn('my password is hunter2', ui);
      assert.equal(blocked.status, 'blocked');
      assert.equal(fake.requests.length, 0, 'the model was not called');
      assert.ok(ui.notices.some((n) => n.level === 'warning' && /prompts must not contain passwords/.test(n.text)), JSON.stringify(ui.notices));
      assert.deepEqual(agent.messages, [], 'the prompt is not in the conversation');

      const ok = await agent.runTurn('hello', recordingUI());
      assert.equal(ok.status, 'completed');
      assert.doesNotMatch(requestText(fake.requests[0]!), /hunter2|must not contain/, 'neither the prompt nor the reason reaches the model');
      await agent.dispose();
    });

    it('decision "block" (exit 0) refuses too, with its reason', async () => {
      ws.settings({ UserPromptSubmit: hookGroup(json({ decision: 'block', reason: 'outside office hours' })) });
      const agent = await agentOn(ws, fake);
      const ui = recordingUI();
      const r = await agent.runTurn('deploy', ui);
      assert.equal(r.status === 'blocked' && r.reason, 'outside office hours');
      assert.equal(fake.requests.length, 0);
      await agent.dispose();
    });

    it('additionalContext (JSON) and plain stdout join that turn as hook context after the prompt', async () => {
      ws.settings({
        UserPromptSubmit: [
          { hooks: [{ type: 'command', command: json({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'ticket ABC-1 is open' } }) }] },
          { hooks: [{ type: 'command', command: 'echo "the branch is feature/x"' }] },
        ],
      });
      const agent = await agentOn(ws, fake);
      await agent.runTurn('what is open?', recordingUI());
      const users = userMessages(fake.requests[0]!);
      const prompt = users.findIndex((m) => m.includes('what is open?'));
      const context = users.findIndex((m) => m.includes('<hook_context event="UserPromptSubmit">'));
      assert.ok(prompt >= 0 && context > prompt, JSON.stringify(users));
      assert.match(users[context]!, /ticket ABC-1 is open/);
      assert.match(users[context]!, /the branch is feature\/x/);
      await agent.dispose();
    });

    it('a hook that sleeps past its timeout is killed, the user is warned, and the turn finishes', async () => {
      const pidFile = join(ws.workspace, 'hook.pid');
      // 2 s: time enough for the shell to write its pid on a loaded machine before it is killed.
      ws.settings({ UserPromptSubmit: hookGroup(`echo $$ > "${pidFile}"; sleep 30`, { timeout: 2 }) });
      const agent = await agentOn(ws, fake);
      const ui = recordingUI();
      const r = await agent.runTurn('hi', ui);
      assert.equal(r.status, 'completed');
      assert.equal(r.text, 'done');
      assert.ok(ui.notices.some((n) => /timed out and was killed/.test(n.text)), JSON.stringify(ui.notices));
      const pid = Number(readFileSync(pidFile, 'utf8'));
      // The kill is sent before the turn goes on; on a loaded machine the exit may take a moment to land.
      await until(() => !running(pid), 'the hook process to be gone');
      await agent.dispose();
    });
  });

  describe('SessionStart and SessionEnd', () => {
    it('SessionStart context reaches the first turn; /clear ends the session and starts a new one; dispose ends it', async () => {
      ws.settings({
        SessionStart: hookGroup(`${logInput}; echo "project uses pnpm"`),
        // A slow SessionEnd: the new conversation's SessionStart still comes after it.
        SessionEnd: hookGroup(`sleep 0.3; ${logInput}`),
      });
      const agent = await agentOn(ws, fake);
      await agent.runTurn('first', recordingUI());
      await agent.runTurn('second', recordingUI());
      assert.match(requestText(fake.requests[0]!), /<hook_context event=\\"SessionStart\\">\\nproject uses pnpm/);
      assert.equal(fake.requests.filter((r) => /project uses pnpm/.test(requestText(r))).length, 2, 'in the conversation from then on (the second turn sends it again as history)');
      assert.equal(userMessages(fake.requests[1]!).filter((m) => m.includes('project uses pnpm')).length, 1, 'added once');

      agent.clear();
      await agent.runTurn('third', recordingUI());
      await agent.dispose();
      const events = ws.inputs().map((i) => `${i.hook_event_name}:${i.source ?? i.reason}`);
      assert.deepEqual(events, ['SessionStart:startup', 'SessionEnd:clear', 'SessionStart:clear', 'SessionEnd:other']);
      assert.match(requestText(fake.requests.at(-1)!), /project uses pnpm/, 'the new conversation gets it again');
    });

    it('/clear onto a new agent (CLI, terminal, chat): its SessionStart waits for the old agent\'s slow SessionEnd', async () => {
      ws.settings({ SessionStart: hookGroup(logInput), SessionEnd: hookGroup(`sleep 0.5; ${logInput}`) });
      const old = await agentOn(ws, fake, { sessionId: 'old11111' });
      await old.runTurn('first', recordingUI());
      old.clear(); // what /clear does to the agent it ran on
      const fresh = await agentOn(ws, fake, { sessionId: 'new22222' });
      fresh.clear({ after: old });
      await fresh.runTurn('second', recordingUI());
      await Promise.all([old.dispose(), fresh.dispose()]);
      const events = ws.inputs().map((i) => `${i.hook_event_name}:${i.source ?? i.reason}:${i.session_id}`);
      assert.deepEqual(events, ['SessionStart:startup:old11111', 'SessionEnd:clear:old11111', 'SessionStart:clear:new22222', 'SessionEnd:other:new22222']);
    });

    it('a resumed conversation starts with source "resume"', async () => {
      ws.settings({ SessionStart: hookGroup(logInput) });
      const agent = await agentOn(ws, fake);
      agent.restore([{ role: 'user', content: 'earlier' }, { role: 'assistant', content: 'yes', toolCalls: [] }]);
      await agent.runTurn('go on', recordingUI());
      await agent.dispose();
      assert.deepEqual(ws.inputs().map((i) => i.source), ['resume']);
    });

    it('SessionEnd never holds up dispose: a hanging hook is killed at its short default timeout', async () => {
      ws.settings({ SessionEnd: hookGroup('sleep 30') });
      const agent = await agentOn(ws, fake);
      const ui = recordingUI();
      await agent.runTurn('hi', ui);
      await agent.dispose();
      assert.ok(ui.notices.some((n) => /SessionEnd hook .* timed out/.test(n.text)), JSON.stringify(ui.notices));
    });
  });

  describe('Stop', () => {
    it('exit 2 keeps the agent going with the reason as a user message (stop_hook_active on the next stop)', async () => {
      ws.settings({ Stop: hookGroup(`${logInput}; ${firstTimeOnly('stop-once')}; echo "run the tests first" >&2; exit 2`) });
      fake.enqueue({ text: 'Finished.' }, { text: 'Tests pass. Finished.' });
      const agent = await agentOn(ws, fake);
      const r = await agent.runTurn('fix it', recordingUI());
      await agent.dispose();
      assert.equal(r.text, 'Tests pass. Finished.');
      assert.equal(fake.requests.length, 2);
      const last = userMessages(fake.requests[1]!).at(-1)!;
      assert.match(last, /Stop hook/);
      assert.match(last, /run the tests first/);
      assert.deepEqual(ws.inputs().map((i) => [i.stop_hook_active, i.last_assistant_message]), [
        [false, 'Finished.'],
        [true, 'Tests pass. Finished.'],
      ]);
    });

    it(`a hook that always blocks is overridden after ${MAX_CONSECUTIVE_STOP_BLOCKS} blocks, with a warning`, async () => {
      ws.settings({ Stop: hookGroup(json({ decision: 'block', reason: 'never done' })) });
      const agent = await agentOn(ws, fake);
      const ui = recordingUI();
      const r = await agent.runTurn('go', ui);
      await agent.dispose();
      assert.equal(r.status, 'completed');
      assert.equal(fake.requests.length, MAX_CONSECUTIVE_STOP_BLOCKS + 1, 'the model was asked to go on 8 times');
      assert.ok(ui.notices.some((n) => /blocked 8 times in a row; stopping anyway/.test(n.text)), JSON.stringify(ui.notices));
    });

    it('task_complete is held back by a blocking Stop hook too', async () => {
      ws.settings({ Stop: hookGroup(`${firstTimeOnly('tc-once')}; ${json({ decision: 'block', reason: 'update the changelog' })}`) });
      fake.enqueue(
        { toolCalls: [{ name: 'task_complete', arguments: { summary: 'Did it.', status: 'success' } }] },
        { toolCalls: [{ name: 'task_complete', arguments: { summary: 'Did it, changelog too.', status: 'success' } }] },
      );
      const agent = await agentOn(ws, fake);
      const r = await agent.runTurn('do it', recordingUI());
      await agent.dispose();
      assert.equal(r.text, 'Did it, changelog too.');
      assert.match(userMessages(fake.requests[1]!).at(-1)!, /update the changelog/);
    });
  });

  describe('PreToolUse and PostToolUse', () => {
    it('PostToolUse additionalContext reaches the next model call; post hooks do not hold up the next call of the batch', async () => {
      // The first command's post hook waits until the second command has run: it can only see
      // second.txt if the dispatcher did not wait for it.
      const waitForSecond = ws.script('post', `input=$(cat); case "$input" in *first*) for i in $(seq 50); do [ -e "$OPENDEV_PROJECT_DIR/second.txt" ] && { ${json({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'post hook saw second.txt' } })}; exit 0; }; sleep 0.1; done; echo '{}';; esac`);
      ws.settings({ PostToolUse: hookGroup(waitForSecond, { matcher: 'Bash' }) });
      fake.enqueue({ toolCalls: [{ id: 'a', name: 'run_command', arguments: { command: 'echo first' } }, { id: 'b', name: 'run_command', arguments: { command: 'touch second.txt' } }] }, { text: 'ok' });
      const agent = await agentOn(ws, fake);
      await agent.runTurn('two commands', recordingUI());
      await agent.dispose();
      const next = userMessages(fake.requests[1]!);
      assert.ok(next.some((m) => m.includes('<hook_context event="PostToolUse">') && m.includes('post hook saw second.txt')), JSON.stringify(next));
    });

    it('Stop while a post hook hangs: the turn ends at once, the hook is left to its timeout', async () => {
      const pidFile = join(ws.workspace, 'post.pid');
      // Its timeout is past its sleep: only the interrupt can end the turn while it runs.
      ws.settings({ PostToolUse: hookGroup(`echo $$ > "${pidFile}"; exec sleep 30`, { timeout: 60 }) });
      fake.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo x' } }] }, { text: 'never asked' });
      const agent = await agentOn(ws, fake);
      const ui = recordingUI({ onToolEnd: () => void until(() => existsSync(pidFile), 'the post hook to start').then(() => agent.interrupt()) });
      const r = await agent.runTurn('go', ui);
      assert.equal(r.status, 'stopped');
      assert.equal(fake.requests.length, 1, 'no call after the interrupt');
      const pid = Number(readFileSync(pidFile, 'utf8'));
      assert.doesNotThrow(() => process.kill(pid, 0), 'the hook was still running when the turn ended');
      await agent.dispose();
    });

    it('an async post hook is never waited for', async () => {
      ws.settings({ PostToolUse: hookGroup(`sleep 20; touch "$OPENDEV_PROJECT_DIR/late.txt"`, { async: true }) });
      fake.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo x' } }] }, { text: 'ok' });
      const agent = await agentOn(ws, fake);
      const r = await agent.runTurn('go', recordingUI());
      await agent.dispose();
      assert.equal(r.text, 'ok');
      assert.equal(existsSync(join(ws.workspace, 'late.txt')), false, 'the turn ended while the async hook still slept');
    });

    it('PreToolUse additionalContext reaches the next call; garbage output and exit 1 are warnings and the call runs', async () => {
      ws.settings({
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: json({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'commands run in a sandbox' } }) }] },
          { matcher: 'Bash', hooks: [{ type: 'command', command: "echo '{not json'" }] },
          { matcher: 'Bash', hooks: [{ type: 'command', command: `echo '{"continue":"maybe"}'` }] },
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo broken >&2; exit 1' }] },
        ],
      });
      fake.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo ran-it' } }] }, { text: 'ok' });
      const agent = await agentOn(ws, fake);
      const ui = recordingUI();
      await agent.runTurn('go', ui);
      await agent.dispose();
      assert.match(allToolResults(fake.requests[1]!)[0]!.content, /ran-it/);
      assert.match(requestText(fake.requests[1]!), /commands run in a sandbox/);
      const warnings = ui.notices.filter((n) => n.level === 'warning').map((n) => n.text).join('\n');
      assert.match(warnings, /does not parse/);
      assert.match(warnings, /does not fit the hook output format \(continue:/);
      assert.match(warnings, /failed \(exit 1\): broken/);
    });
  });

  describe('subagents', () => {
    it('SubagentStart exit 2 refuses the spawn and the model reads why; no subagent runs', async () => {
      ws.settings({ SubagentStart: hookGroup('echo "no explorers on Fridays" >&2; exit 2', { matcher: 'Code-Explorer' }) });
      fake.enqueue({ toolCalls: [{ name: 'spawn_subagent', arguments: { subagent_type: 'Code-Explorer', task: 'look around' } }] }, { text: 'I will look myself.' }, { text: 'Looked.' });
      const agent = await agentOn(ws, fake);
      await agent.runTurn('explore', recordingUI());
      await agent.dispose();
      assert.equal(fake.requests.filter(isExplorer).length, 0);
      const result = allToolResults(fake.requests[1]!)[0]!.content;
      assert.match(result, /failed/);
      assert.match(result, /SubagentStart hook refused to start Code-Explorer: no explorers on Fridays/);
    });

    it('SubagentStart context goes to the subagent; SubagentStop exit 2 keeps it going', async () => {
      ws.settings({
        SubagentStart: hookGroup(json({ hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'only look in src/' } })),
        SubagentStop: hookGroup(`${firstTimeOnly('sub-once')}; echo "cite file:line" >&2; exit 2`, { matcher: 'Code-Explorer' }),
      });
      let explorerCalls = 0;
      fake.setResponder((req) => (isExplorer(req) ? { text: ++explorerCalls === 1 ? 'add is in math.ts' : 'add is in math.ts:3' } : { text: 'done' }));
      fake.enqueue({ toolCalls: [{ name: 'spawn_subagent', arguments: { subagent_type: 'Code-Explorer', task: 'find add' } }] });
      const agent = await agentOn(ws, fake);
      await agent.runTurn('where is add?', recordingUI());
      await agent.dispose();
      const explorer = fake.requests.filter(isExplorer);
      assert.equal(explorer.length, 2);
      assert.match(requestText(explorer[0]!), /<hook_context event=\\"SubagentStart\\">\\nonly look in src\//);
      assert.match(userMessages(explorer[1]!).at(-1)!, /SubagentStop hook[\s\S]*cite file:line/);
      const main = fake.requests.filter((r) => !isExplorer(r));
      assert.match(allToolResults(main[1]!)[0]!.content, /math\.ts:3/);
    });
  });

  it('Notification fires when the user is asked a question; it does not change the answer', async () => {
    ws.settings({ Notification: hookGroup(`${logInput}; echo "ignored" >&2; exit 2`, { matcher: 'elicitation_dialog' }) });
    fake.enqueue({ toolCalls: [{ name: 'ask_user', arguments: { questions: [{ header: 'Lang', question: 'Which language?', options: [{ label: 'TS', description: 'TypeScript' }, { label: 'Go', description: 'Go' }], multiSelect: false }] } }] }, { text: 'TS it is.' });
    const agent = await agentOn(ws, fake);
    const ui = recordingUI({ askUser: async () => ({ answers: [{ header: 'Lang', selected: ['TS'] }] }) });
    const r = await agent.runTurn('pick a language', ui);
    await agent.dispose();
    assert.equal(r.text, 'TS it is.');
    await until(() => ws.inputs().length > 0, 'the Notification hook to run');
    const [note] = ws.inputs();
    assert.deepEqual([note!.hook_event_name, note!.notification_type, note!.message], ['Notification', 'elicitation_dialog', 'Which language?']);
    assert.ok(!ui.notices.some((n) => /ignored/.test(n.text)), 'a Notification hook’s exit 2 and stderr are ignored');
  });
});
