// `opendev acp` end to end: a real ACP client (the SDK's client side) on a real stdio pipe to
// `node dist/cli.js acp`, against the fake provider on 127.0.0.1.
import * as assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestPermissionResponse } from '@agentclientprotocol/sdk';
import { FakeProvider, lastUserText, toolResults } from '../../fixtures/fake-provider';
import { newHome, workspace } from '../cli/cli-harness';
import { startAcpClient, textOf, updatesOf, type AcpClient } from './acp-client';

const KEY = 'sk-acp-test-key-never-shown';
const ORIGINAL = readFileSync(join(workspace, 'math.ts'), 'utf8');
const READ = { name: 'read_file', arguments: { file_path: 'math.ts' } };
const EDIT = { name: 'edit_file', arguments: { file_path: 'math.ts', old_content: 'return a - b;', new_content: 'return a - b; // checked' } };

describe('opendev acp (a real ACP client over stdio)', function () {
  const fake = new FakeProvider();
  let home: string;
  let dir: string;
  let acp: AcpClient;
  // No thinking phase: each scripted turn answers one action call.
  const start = (args: string[] = []) => (acp = startAcpClient({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_HOME: home }, ['--thinking', 'off', ...args]));
  const newSession = async () => (await acp.connection.agent.request('session/new', { cwd: dir, mcpServers: [] })).sessionId;
  const prompt = (sessionId: string, text: string) => acp.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
  const initialize = () => acp.connection.agent.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } });

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(async () => {
    fake.reset();
    home = newHome();
    dir = mkdtempSync(join(tmpdir(), 'opendev-acp-'));
    cpSync(workspace, dir, { recursive: true });
    start();
    await initialize();
  });
  afterEach(async function () {
    await acp.close();
    const everything = JSON.stringify(acp.updates) + JSON.stringify(acp.permissions) + acp.stderr();
    assert.equal(everything.includes(KEY), false, 'the API key never reaches the client or the log');
  });

  it('initialize: protocol version 1, loadSession, images and embedded context, MCP over http and sse', async () => {
    const init = await initialize();
    assert.equal(init.protocolVersion, 1);
    assert.equal(init.agentCapabilities?.loadSession, true);
    assert.deepEqual(init.agentCapabilities?.promptCapabilities, { image: true, audio: false, embeddedContext: true });
    assert.deepEqual(init.agentCapabilities?.mcpCapabilities, { http: true, sse: true });
    assert.equal(init.agentInfo?.name, 'opendev');
  });

  it('session/new and a prompt: the answer streams as agent_message_chunk, with the modes offered', async () => {
    const created = await acp.connection.agent.request('session/new', { cwd: dir, mcpServers: [] });
    assert.match(created.sessionId, /^[a-z0-9]{8}$/);
    assert.deepEqual(created.modes?.availableModes.map((m) => m.id), ['normal', 'plan']);
    assert.equal(created.modes?.currentModeId, 'normal');
    fake.enqueue({ text: 'It exports PI, add and subtract.', thinking: 'Let me look.' });
    const response = await prompt(created.sessionId, 'what does math.ts export?');
    assert.equal(response.stopReason, 'end_turn');
    const chunks = updatesOf(acp, created.sessionId, 'agent_message_chunk');
    assert.ok(chunks.length >= 2, `streamed in several chunks (${chunks.length})`);
    assert.equal(textOf(acp, created.sessionId, 'agent_message_chunk'), 'It exports PI, add and subtract.');
    assert.match(textOf(acp, created.sessionId, 'agent_thought_chunk'), /Let me look\./);
    assert.equal(lastUserText(fake.requests[0]!), 'what does math.ts export?');
    assert.equal(fake.requests[0]!.headers.authorization, `Bearer ${KEY}`);
  });

  it('an edit asks with its diff; "allow once" applies it on disk and the tool call ends with the diff', async () => {
    const sessionId = await newSession();
    fake.enqueue({ toolCalls: [READ] }, { toolCalls: [{ id: 'edit-1', ...EDIT }] }, { text: 'Annotated.' });
    const response = await prompt(sessionId, 'annotate subtract');
    assert.equal(response.stopReason, 'end_turn');
    assert.equal(acp.permissions.length, 1);
    const asked = acp.permissions[0]!;
    assert.equal(asked.toolCall.toolCallId, 'edit-1');
    assert.deepEqual(asked.options.map((o) => o.kind), ['allow_once', 'allow_always', 'reject_once']);
    const diff = asked.toolCall.content?.find((c) => c.type === 'diff');
    assert.ok(diff && diff.type === 'diff', 'the question carries the diff');
    assert.equal(diff.path, join(dir, 'math.ts'));
    assert.match(diff.newText, /return a - b; \/\/ checked/);
    assert.match(readFileSync(join(dir, 'math.ts'), 'utf8'), /return a - b; \/\/ checked/);
    const call = updatesOf(acp, sessionId, 'tool_call').find((c) => c.toolCallId === 'edit-1');
    assert.equal(call?.kind, 'edit');
    assert.deepEqual(call?.locations, [{ path: join(dir, 'math.ts') }]);
    const done = updatesOf(acp, sessionId, 'tool_call_update').find((u) => u.toolCallId === 'edit-1' && u.status === 'completed');
    assert.ok(done, 'the tool call completed');
    assert.ok(done.content?.some((c) => c.type === 'diff' && c.newText.includes('// checked') && c.oldText === ORIGINAL.replace(/\r\n/g, '\n')));
  });

  it('"reject" leaves the file untouched and the tool call failed', async () => {
    const sessionId = await newSession();
    acp.answer = () => ({ outcome: { outcome: 'selected', optionId: 'reject' } });
    fake.enqueue({ toolCalls: [READ] }, { toolCalls: [{ id: 'edit-2', ...EDIT }] }, { text: 'Left it.' });
    assert.equal((await prompt(sessionId, 'annotate subtract')).stopReason, 'end_turn');
    assert.equal(acp.permissions[0]?.toolCall.toolCallId, 'edit-2', 'the edit was put to the user');
    assert.equal(readFileSync(join(dir, 'math.ts'), 'utf8'), ORIGINAL);
    assert.ok(updatesOf(acp, sessionId, 'tool_call_update').some((u) => u.toolCallId === 'edit-2' && u.status === 'failed'));
  });

  it('a command runs once allowed (--approval manual: every command asks): kind execute, its output on the tool call', async () => {
    await acp.close();
    start(['--approval', 'manual']);
    await initialize();
    const sessionId = await newSession();
    fake.enqueue({ toolCalls: [{ id: 'cmd-1', name: 'run_command', arguments: { command: 'echo acp-output-marker && touch made.txt' } }] }, { text: 'Ran it.' });
    assert.equal((await prompt(sessionId, 'run it')).stopReason, 'end_turn');
    assert.equal(acp.permissions[0]?.toolCall.toolCallId, 'cmd-1');
    assert.equal(updatesOf(acp, sessionId, 'tool_call')[0]?.kind, 'execute');
    const texts = updatesOf(acp, sessionId, 'tool_call_update')
      .filter((u) => u.toolCallId === 'cmd-1')
      .flatMap((u) => u.content ?? [])
      .map((c) => (c.type === 'content' && c.content.type === 'text' ? c.content.text : ''));
    assert.ok(texts.some((t) => t.includes('acp-output-marker')), `the output is shown: ${JSON.stringify(texts)}`);
  });

  it('session/cancel during a model call: the prompt answers cancelled', async () => {
    const sessionId = await newSession();
    fake.enqueue({ failure: { kind: 'hang' } });
    const pending = prompt(sessionId, 'take your time');
    await fake.waitForRequests(1);
    await acp.connection.agent.notify('session/cancel', { sessionId });
    assert.equal((await pending).stopReason, 'cancelled');
  });

  it('session/cancel while a permission request is open: the request is withdrawn, the prompt answers cancelled, the file stays', async () => {
    const sessionId = await newSession();
    let asked!: () => void;
    const question = new Promise<void>((resolve) => (asked = resolve));
    acp.answer = (_request, signal) =>
      new Promise<RequestPermissionResponse>((resolve) => {
        signal.addEventListener('abort', () => resolve({ outcome: { outcome: 'cancelled' } }), { once: true });
        asked();
      });
    fake.enqueue({ toolCalls: [READ] }, { toolCalls: [{ id: 'edit-3', ...EDIT }] }, { text: 'should not be asked for' });
    const pending = prompt(sessionId, 'annotate subtract');
    await question;
    await acp.connection.agent.notify('session/cancel', { sessionId });
    assert.equal((await pending).stopReason, 'cancelled');
    assert.equal(readFileSync(join(dir, 'math.ts'), 'utf8'), ORIGINAL);
    assert.equal(fake.requests.length, 2, 'the turn stopped: no model call after the cancel');
  });

  it('session/load of a saved session replays its conversation, and the session goes on', async () => {
    const sessionId = await newSession();
    fake.enqueue({ toolCalls: [{ id: 'read-1', name: 'read_file', arguments: { file_path: 'math.ts' } }] }, { text: 'PI, add and subtract.' });
    assert.equal((await prompt(sessionId, 'what is exported?')).stopReason, 'end_turn');
    await acp.close();

    start();
    await initialize();
    const loaded = await acp.connection.agent.request('session/load', { sessionId, cwd: dir, mcpServers: [] });
    assert.equal(loaded.modes?.currentModeId, 'normal');
    assert.equal(textOf(acp, sessionId, 'user_message_chunk'), 'what is exported?');
    assert.equal(textOf(acp, sessionId, 'agent_message_chunk'), 'PI, add and subtract.');
    assert.deepEqual(updatesOf(acp, sessionId, 'tool_call').map((c) => [c.toolCallId, c.kind]), [['read-1', 'read']]);
    assert.ok(updatesOf(acp, sessionId, 'tool_call_update').some((u) => u.toolCallId === 'read-1' && u.status === 'completed'));

    fake.enqueue({ text: 'Still here.' });
    assert.equal((await prompt(sessionId, 'and now?')).stopReason, 'end_turn');
    const messages = fake.requests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
    assert.ok(JSON.stringify(messages).includes('what is exported?'), 'the model sees the loaded conversation');
  });

  it('session/load of an unknown session is an error', async () => {
    await assert.rejects(acp.connection.agent.request('session/load', { sessionId: 'nosuch00', cwd: dir, mcpServers: [] }));
  });

  it('set_mode plan: the mode update is sent and the model gets no editing tools', async () => {
    const sessionId = await newSession();
    await acp.connection.agent.request('session/set_mode', { sessionId, modeId: 'plan' });
    assert.deepEqual(updatesOf(acp, sessionId, 'current_mode_update').map((u) => u.currentModeId), ['plan']);
    fake.enqueue({ text: 'A plan, then.' });
    assert.equal((await prompt(sessionId, 'look around')).stopReason, 'end_turn');
    const tools = (fake.requests[0]!.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    assert.ok(tools.includes('read_file'));
    assert.equal(tools.includes('edit_file'), false, 'plan mode is read-only');
    await assert.rejects(acp.connection.agent.request('session/set_mode', { sessionId, modeId: 'yolo' }));
  });

  it('the todo list arrives as plan entries', async () => {
    const sessionId = await newSession();
    fake.enqueue(
      { toolCalls: [{ name: 'write_todos', arguments: { todos: [{ title: 'Read math.ts' }, { title: 'Annotate subtract' }] } }] },
      { text: 'Planned.' },
    );
    assert.equal((await prompt(sessionId, 'track the steps')).stopReason, 'end_turn');
    const plan = updatesOf(acp, sessionId, 'plan').at(-1);
    assert.deepEqual(plan?.entries.map((e) => [e.content, e.status]), [['Read math.ts', 'pending'], ['Annotate subtract', 'pending']]);
  });

  it('ask_user: each question is a permission request with its answers as options; the pick reaches the model', async () => {
    const sessionId = await newSession();
    const questions = [{ header: 'Style', question: 'Which comment style?', options: [{ label: 'Line', description: '// comments' }, { label: 'Block', description: '/* */ comments' }] }];
    fake.enqueue({ toolCalls: [{ id: 'ask-1', name: 'ask_user', arguments: { questions } }] }, { text: 'Block it is.' });
    acp.answer = (request) => ({ outcome: { outcome: 'selected', optionId: request.options.find((o) => o.name === 'Block')!.optionId } });
    assert.equal((await prompt(sessionId, 'comment it')).stopReason, 'end_turn');
    assert.equal(acp.permissions[0]?.toolCall.title, 'Which comment style?');
    assert.deepEqual(acp.permissions[0]?.options.map((o) => o.name).slice(0, 2), ['Line', 'Block']);
    assert.match(toolResults(fake.requests[1]!)[0]!.content, /Block/);
  });

  it('present_plan: the plan review is a permission request; "approve" approves it', async () => {
    mkdirSync(join(dir, '.opendev/plans'), { recursive: true });
    writeFileSync(join(dir, '.opendev/plans/annotate.md'), ['# Annotate subtract', '## Goal', 'A comment on subtract.', '## Context', 'math.ts', '## Files to modify', 'math.ts', '## Files to create', 'None', '## Implementation steps', '1. Add a comment to subtract.', '## Verification', 'Read it.', '## Risks', 'None', ''].join('\n\n'));
    const sessionId = await newSession();
    fake.enqueue({ toolCalls: [{ id: 'plan-1', name: 'present_plan', arguments: { plan_file_path: '.opendev/plans/annotate.md' } }] }, { text: 'Approved, starting.' });
    acp.answer = () => ({ outcome: { outcome: 'selected', optionId: 'approve' } });
    await prompt(sessionId, 'go ahead');
    const asked = acp.permissions[0];
    assert.ok(asked, 'the plan was put to the user');
    assert.equal(asked.toolCall.kind, 'switch_mode');
    assert.ok(asked.toolCall.content?.some((c) => c.type === 'content' && c.content.type === 'text' && c.content.text.includes('Add a comment to subtract')));
    await fake.waitForRequests(2);
    const messages = fake.requests[1]!.body.messages as Array<{ tool_calls?: unknown }>;
    const afterCall = messages.slice(messages.findIndex((m) => m.tool_calls) + 1);
    assert.match(JSON.stringify(afterCall), /approved/i, 'the model is told the plan was approved');
  });

  it('an untrusted folder: its configuration stays inert (an edit still asks) and the first turn says so once', async () => {
    mkdirSync(join(dir, '.opendev'), { recursive: true });
    writeFileSync(join(dir, '.opendev/settings.json'), JSON.stringify({ approvalLevel: 'auto' }));
    const sessionId = await newSession();
    fake.enqueue({ toolCalls: [READ] }, { toolCalls: [{ id: 'edit-4', ...EDIT }] }, { text: 'Done.' }, { text: 'Again.' });
    await prompt(sessionId, 'annotate subtract');
    assert.equal(acp.permissions.length, 1, 'auto from the untrusted folder did not apply');
    const said = textOf(acp, sessionId, 'agent_message_chunk');
    assert.match(said, /not trusted/);
    assert.match(said, /opendev trust/);
    await prompt(sessionId, 'anything else?');
    assert.equal(textOf(acp, sessionId, 'agent_message_chunk').match(/not trusted/g)?.length, 1, 'said once');
  });

  it('an embedded file and a resource link in the prompt reach the model', async () => {
    const sessionId = await newSession();
    fake.enqueue({ text: 'Seen.' });
    await acp.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [
        { type: 'text', text: 'compare these' },
        { type: 'resource', resource: { uri: `file://${join(dir, 'notes.txt')}`, text: 'unsaved buffer text', mimeType: 'text/plain' } },
        { type: 'resource_link', uri: `file://${join(dir, 'math.ts')}`, name: 'math.ts' },
      ],
    });
    const sent = JSON.stringify(fake.requests[0]!.body.messages);
    assert.ok(sent.includes('unsaved buffer text'));
    assert.ok(sent.includes(join(dir, 'math.ts')));
  });
});
