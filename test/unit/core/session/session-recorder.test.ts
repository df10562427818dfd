import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { formatSessions } from '../../../../src/core/commands/format';
import type { Message } from '../../../../src/core/messages';
import { INDEX_FILE } from '../../../../src/core/session/session-index';
import { SessionRecorder, type FollowedConversation } from '../../../../src/core/session/session-recorder';
import { SessionStore, SessionWriteError } from '../../../../src/core/session/session-store';
import { cleanTitle } from '../../../../src/core/session/session-titler';
import { sessionTitlesFromEnv } from '../../../../src/core/config/session-titles-setting';
import type { Tool } from '../../../../src/core/tools/tool';
import { silentUI } from '../../../../src/core/ui';
import { FakeProvider, type RecordedRequest, type ScriptedTurn } from '../../../fixtures/fake-provider';
import { testAgent } from '../../../helpers/test-agent';
import { withFaultyDisk } from './faulty-disk';

/** The title call carries the title template as its system prompt (the agent's action calls carry the agent's). */
const isTitleCall = (req: RecordedRequest) => JSON.stringify(req.body?.messages?.[0] ?? '').includes('You name conversations');

/** Answers the agent's action calls from `steps` and the title call with `title`. */
function responder(steps: ScriptedTurn[], title: ScriptedTurn = { text: 'A title' }) {
  return (req: RecordedRequest): ScriptedTurn => (isTitleCall(req) ? title : (steps.shift() ?? { text: 'Done.' }));
}

describe('SessionRecorder', () => {
  const fake = new FakeProvider();
  let home: string;
  let project: string;
  let problems: string[];
  let store: SessionStore;

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    home = mkdtempSync(join(tmpdir(), 'opendev-recorder-'));
    project = mkdtempSync(join(tmpdir(), 'opendev-recorder-project-'));
    problems = [];
    store = new SessionStore({ home });
  });

  it('saves each message as it joins the conversation, while the turn still runs', async () => {
    const reader = new SessionStore({ home });
    let recorder!: SessionRecorder;
    // A tool that looks at the session on disk, as someone would after a crash at that instant.
    const schema = z.object({});
    const peek: Tool<typeof schema> = {
      name: 'peek_session',
      category: 'meta',
      readOnly: true,
      schema,
      async run() {
        await recorder.settled();
        const saved = await reader.load(recorder.id!, project);
        return { ok: true, output: `${saved?.messages.length ?? 0} saved`, summary: 'peeked' };
      },
    };
    const agent = testAgent({ wire: 'openai', fake, tools: [peek] });
    recorder = new SessionRecorder(store, project, undefined, { onProblem: (p) => problems.push(p) });
    recorder.follow(agent);
    fake.setResponder(responder([{ toolCalls: [{ name: 'peek_session', arguments: {} }] }, { toolCalls: [{ name: 'peek_session', arguments: {} }] }, { text: 'Done.' }]));

    const result = await agent.runTurn('Look at the session', silentUI);
    assert.equal(result.status, 'completed');
    const peeks = agent.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    assert.deepEqual(peeks, ['1 saved', '3 saved'], 'the request before the first step; request, call and result before the second');
    await recorder.save(agent);
    assert.deepEqual((await reader.load(recorder.id!, project))?.messages, agent.messages);
    assert.deepEqual(problems, []);
  });

  it('writes the metadata and the index every 5 per-message saves and at the end of each turn', async () => {
    const listeners: Array<(history: readonly Message[]) => void> = [];
    const conversation = {
      messages: [] as Message[],
      cost: () => ({ inputTokens: 10, cachedTokens: 0, outputTokens: 2, usd: 0.5, calls: 1 }),
      observeHistory(listener: (history: readonly Message[]) => void) {
        listeners.push(listener);
        return () => void listeners.splice(listeners.indexOf(listener), 1);
      },
    } satisfies FollowedConversation;
    const recorder = new SessionRecorder(store, project);
    const unfollow = recorder.follow(conversation);
    const seen: Array<[number, number, number]> = [];
    for (let i = 0; i < 7; i++) {
      conversation.messages.push({ role: 'user', content: `message ${i}` });
      listeners[0]!(conversation.messages);
      await recorder.settled();
      const dir = store.projectDir(project);
      const lines = readFileSync(join(dir, `${recorder.id}.jsonl`), 'utf8').trim().split('\n').length;
      const meta = JSON.parse(readFileSync(join(dir, `${recorder.id}.json`), 'utf8'));
      const indexed = JSON.parse(readFileSync(join(dir, INDEX_FILE), 'utf8')).sessions[0].messageCount;
      assert.equal(indexed, meta.messageCount, 'the index follows every metadata save');
      seen.push([lines, meta.messageCount, i === 4 ? meta.cost.usd : 0]);
    }
    assert.deepEqual(seen.map((s) => s[0]), [1, 2, 3, 4, 5, 6, 7], 'every message is on disk at once');
    assert.deepEqual(seen.map((s) => s[1]), [0, 0, 0, 0, 5, 5, 5], 'the metadata every 5 saves');
    assert.equal(seen[4]![2], 0.5, 'with the cost');
    await recorder.save(conversation);
    assert.equal((await store.list(project))[0]?.messageCount, 7, 'and at the end of the turn');
    unfollow();
    assert.equal(listeners.length, 0);
  });

  it('when the disk is full, the conversation stays in memory, it is said once, and the next save catches up', async () => {
    const agent = testAgent({ wire: 'openai', fake, tools: [] });
    const recorder = new SessionRecorder(store, project, undefined, { onProblem: (p) => problems.push(p) });
    recorder.follow(agent);
    fake.setResponder(responder([{ text: 'First answer.' }, { text: 'Second answer.' }]));
    await agent.runTurn('First question', silentUI);
    await recorder.save(agent);

    const failure = await withFaultyDisk([{ kind: 'write', code: 'ENOSPC', match: (p) => p.endsWith('.jsonl') }], async () => {
      const result = await agent.runTurn('Second question', silentUI);
      assert.equal(result.status, 'completed', 'a full disk never fails the turn');
      return recorder.save(agent).then(
        () => undefined,
        (err: unknown) => err,
      );
    });
    assert.ok(failure instanceof SessionWriteError, 'the end-of-turn save reports the failure to the host');
    assert.equal(failure.reason, 'disk_full');
    assert.deepEqual(
      agent.messages.map((m) => m.content),
      ['First question', 'First answer.', 'Second question', 'Second answer.'],
      'the conversation is intact in memory',
    );
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0]!, /Could not save session [a-z0-9]{8}: the disk is full \(ENOSPC\)\. What was saved before is intact\. The conversation is kept in memory; the next save tries again\./);
    assert.deepEqual((await store.load(recorder.id!, project))?.messages.map((m) => m.content), ['First question', 'First answer.']);

    await recorder.save(agent);
    assert.match(problems[1]!, /Session [a-z0-9]{8} is saved again; nothing was lost\./);
    assert.deepEqual((await store.load(recorder.id!, project))?.messages, agent.messages);
  });

  it('titles the session in the background after the first exchange, with the compact model; listing shows it', async () => {
    const agent = testAgent({ wire: 'openai', fake, tools: [] });
    const recorder = new SessionRecorder(store, project, undefined, { titles: 'model', onProblem: (p) => problems.push(p) });
    recorder.follow(agent);
    // The title call is answered only once the test has looked at the first save.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const steps = responder([{ text: 'The redirect loses the return URL; fixed in auth.ts.' }, { text: 'Yes.' }], { text: 'Title: "Fix the login redirect."' });
    fake.setResponder(async (req) => (isTitleCall(req) ? (await answered, steps(req)) : steps(req)));

    await agent.runTurn('after logging in, users land on the home page instead of where they were', silentUI);
    const record = await recorder.save(agent);
    assert.equal(record?.meta.title, 'after logging in, users land on the home page ins…', 'the first-line title, until the model has answered');
    answer();
    await recorder.settled();
    const titleCalls = fake.requests.filter(isTitleCall);
    assert.equal(titleCalls.length, 1);
    const [system, user] = titleCalls[0]!.body.messages;
    assert.match(system.content, /You name conversations between a developer and a coding agent/);
    assert.match(system.content, /at most 50 characters/);
    assert.match(user.content, /users land on the home page/);
    assert.match(user.content, /fixed in auth\.ts/);

    const listed = await store.list(project);
    assert.deepEqual(listed.map((m) => [m.title, m.titleSource]), [['Fix the login redirect', 'model']]);
    assert.match(formatSessions(listed, recorder.id), /\* [a-z0-9]{8}\s+Fix the login redirect\s+just now/);

    await agent.runTurn('is it tested?', silentUI);
    await recorder.save(agent);
    await recorder.settled();
    assert.equal(fake.requests.filter(isTitleCall).length, 1, 'one title per session');
    assert.equal((await store.load(recorder.id!, project))?.record.meta.title, 'Fix the login redirect', 'later saves keep it');
    assert.deepEqual(problems, []);
  });

  it('a title call that hangs never holds up or fails the turn; the first-line title stays', async () => {
    const agent = testAgent({ wire: 'openai', fake, tools: [] });
    // A time limit longer than the test may take: the turn and the save end while the title call still hangs.
    const recorder = new SessionRecorder(store, project, undefined, { titles: 'model', titleTimeoutMs: 10 * 60_000, onProblem: (p) => problems.push(p) });
    recorder.follow(agent);
    fake.setResponder(responder([{ text: 'Sure.' }], { failure: { kind: 'hang' } }));
    assert.equal((await agent.runTurn('Rename the helper', silentUI)).status, 'completed');
    await recorder.save(agent);
    await fake.waitForRequests(2);
    assert.equal(fake.requests.filter(isTitleCall).length, 1, 'the title call was sent, and is unanswered');
    assert.equal((await store.list(project))[0]?.title, 'Rename the helper');
    recorder.dispose(); // as its time limit would, later
    await recorder.settled();
    assert.equal((await store.list(project))[0]?.title, 'Rename the helper');
    assert.deepEqual(problems, []);
  });

  it('when-needed (the default setting): a first prompt that reads as a title is the title, with no model call', async () => {
    const agent = testAgent({ wire: 'openai', fake, tools: [] });
    const recorder = new SessionRecorder(store, project, undefined, { titles: 'when-needed', onProblem: (p) => problems.push(p) });
    recorder.follow(agent);
    fake.setResponder(responder([{ text: 'The login redirect keeps the return URL now.' }, { text: 'Yes.' }]));
    await agent.runTurn('Fix the login redirect', silentUI);
    await recorder.save(agent);
    await agent.runTurn('is it tested?', silentUI);
    await recorder.save(agent);
    await recorder.settled();
    assert.equal(fake.requests.length, 2, 'one request per message: no title call');
    assert.equal(fake.requests.filter(isTitleCall).length, 0);
    assert.deepEqual((await store.list(project)).map((m) => [m.title, m.titleSource ?? 'message']), [['Fix the login redirect', 'message']]);
    assert.deepEqual(problems, []);
  });

  it('when-needed: a first prompt that is no title (too long, or several lines) is named by the model', async () => {
    for (const prompt of ['after logging in, users land on the home page instead of where they were', 'Why does this fail?\nTypeError: x is undefined\n    at auth.ts:12']) {
      fake.reset();
      const agent = testAgent({ wire: 'openai', fake, tools: [] });
      const recorder = new SessionRecorder(store, project, undefined, { titles: 'when-needed', onProblem: (p) => problems.push(p) });
      recorder.follow(agent);
      fake.setResponder(responder([{ text: 'Fixed in auth.ts.' }], { text: 'Fix the login redirect' }));
      await agent.runTurn(prompt, silentUI);
      const record = await recorder.save(agent);
      await recorder.settled();
      assert.equal(fake.requests.filter(isTitleCall).length, 1, prompt);
      assert.equal((await store.load(record!.meta.id, project))?.record.meta.title, 'Fix the login redirect', prompt);
    }
    assert.deepEqual(problems, []);
  });

  it('makes no title call unless the host turns titles on (scripted runs stay scripted)', async () => {
    const agent = testAgent({ wire: 'openai', fake, tools: [] });
    const recorder = new SessionRecorder(store, project);
    recorder.follow(agent);
    fake.enqueue({ text: 'Hello.' });
    await agent.runTurn('Hi', silentUI);
    await recorder.save(agent);
    await recorder.settled();
    assert.equal(fake.requests.length, 1);
    assert.equal((await store.list(project))[0]?.title, 'Hi');
  });

  it('cleans what the model answers into a title', () => {
    assert.equal(cleanTitle('"Fix the login redirect."'), 'Fix the login redirect');
    assert.equal(cleanTitle('**Title:** Speed up the test suite\n\nBecause…'), 'Speed up the test suite');
    assert.equal(cleanTitle('   '), undefined);
    assert.equal(cleanTitle(`${'Very long '.repeat(10)}`)?.length, 50);
  });

  it('reads OPENDEV_SESSION_TITLES: 0 keeps the first prompt, 1 asks the model, or a value by name', () => {
    assert.equal(sessionTitlesFromEnv({ OPENDEV_SESSION_TITLES: '0' }), 'first-prompt');
    assert.equal(sessionTitlesFromEnv({ OPENDEV_SESSION_TITLES: 'off' }), 'first-prompt');
    assert.equal(sessionTitlesFromEnv({ OPENDEV_SESSION_TITLES: 'true' }), 'model');
    assert.equal(sessionTitlesFromEnv({ OPENDEV_SESSION_TITLES: 'When-Needed' }), 'when-needed');
    assert.equal(sessionTitlesFromEnv({ OPENDEV_SESSION_TITLES: 'maybe' }), undefined);
    assert.equal(sessionTitlesFromEnv({}), undefined);
  });
});
