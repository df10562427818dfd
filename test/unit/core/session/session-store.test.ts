import * as assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '../../../../src/core/messages';
import { repairConversation } from '../../../../src/core/session/session-schema';
import { SessionRecorder } from '../../../../src/core/session/session-recorder';
import { encodeProjectPath, makeTitle, newSessionId, SessionStore } from '../../../../src/core/session/session-store';

const conversation: Message[] = [
  { role: 'user', content: 'What does math.ts export?' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"file_path":"math.ts"}' }] },
  { role: 'tool', toolCallId: 'c1', name: 'read_file', content: 'export const PI = 3.14;', isError: false },
  { role: 'assistant', content: 'It exports PI.', toolCalls: [] },
];

describe('SessionStore', () => {
  let home: string;
  let project: string;
  let problems: string[];
  let clock: number;
  let store: SessionStore;

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'opendev-sessions-'));
    project = mkdtempSync(join(tmpdir(), 'opendev-project-'));
    problems = [];
    clock = Date.parse('2025-01-01T00:00:00Z');
    store = new SessionStore({ home, onProblem: (p) => problems.push(p), now: () => new Date((clock += 1000)) });
  });

  it('keeps sessions per project under OPENDEV_HOME/projects/<encoded path>/ as <id>.json + <id>.jsonl', async () => {
    const record = await store.create(project);
    assert.match(record.meta.id, /^[a-z0-9]{8}$/);
    await store.append(record, conversation);
    const dir = join(home, 'projects', encodeProjectPath(project));
    assert.deepEqual(readdirSync(dir).sort(), [`${record.meta.id}.json`, `${record.meta.id}.jsonl`]);
    const lines = readFileSync(join(dir, `${record.meta.id}.jsonl`), 'utf8').trim().split('\n');
    assert.equal(lines.length, 4);
    assert.ok(JSON.parse(lines[0]!).timestamp, 'every line has a timestamp');
    const meta = JSON.parse(readFileSync(join(dir, `${record.meta.id}.json`), 'utf8'));
    assert.equal(meta.title, 'What does math.ts export?');
    assert.equal(meta.messageCount, 4);
    assert.equal(meta.workingDir, project);
  });

  it('loads what it saved, message for message, with the metadata', async () => {
    const record = await store.create(project);
    await store.sync(record, conversation, { inputTokens: 10, cachedTokens: 2, outputTokens: 3, usd: 0.01, calls: 2 });
    const loaded = await store.load(record.meta.id, project);
    assert.ok(loaded);
    assert.deepEqual(loaded.messages, conversation);
    assert.deepEqual(loaded.problems, []);
    assert.equal(loaded.record.meta.cost?.calls, 2);
    assert.equal(loaded.record.persisted, 4);
    // Without a working dir it is found in any project.
    assert.equal((await store.load(record.meta.id))?.record.meta.id, record.meta.id);
    assert.equal(await store.load('zzzzzzzz', project), undefined);

    // Continuing a loaded session appends (earlier lines keep their timestamps) instead of rewriting.
    const file = join(store.projectDir(project), `${record.meta.id}.jsonl`);
    const before = readFileSync(file, 'utf8');
    await store.sync(loaded.record, [...loaded.messages, { role: 'user', content: 'more' }]);
    const after = readFileSync(file, 'utf8');
    assert.ok(after.startsWith(before));
    assert.equal(after.trim().split('\n').length, 5);
    assert.equal(await store.load('../../etc', project), undefined);
  });

  it('keeps the one-line summary of each tool result, so a resumed session still shows it', async () => {
    const withSummary: Message[] = [
      conversation[0]!,
      conversation[1]!,
      { role: 'tool', toolCallId: 'c1', name: 'read_file', content: 'export const PI = 3.14;', isError: false, summary: '✓ Read math.ts (1 lines, 23 chars)' },
      conversation[3]!,
    ];
    const record = await store.create(project);
    await store.sync(record, withSummary);
    const loaded = await store.load(record.meta.id, project);
    const tool = loaded?.messages.find((m) => m.role === 'tool');
    assert.equal(tool?.role === 'tool' ? tool.summary : undefined, '✓ Read math.ts (1 lines, 23 chars)');
  });

  it('saves metadata atomically: a temp file renamed into place, never a half-written file', async () => {
    const record = await store.create(project);
    const dir = store.projectDir(project);
    // A crash mid-save leaves only a temp file behind, which readers ignore.
    writeFileSync(join(dir, `${record.meta.id}.json.999.dead.tmp`), '{"id": "trunc');
    record.meta.title = 'renamed';
    await store.save(record.meta);
    assert.equal(JSON.parse(readFileSync(join(dir, `${record.meta.id}.json`), 'utf8')).title, 'renamed');
    assert.equal(readdirSync(dir).filter((n) => n.endsWith('.tmp') && !n.includes('.999.')).length, 0, 'no temp file of ours is left');
    assert.deepEqual((await store.list(project)).map((m) => m.title), ['renamed']);
    assert.deepEqual(problems, []);
  });

  it('skips and reports a damaged transcript line, repairs the conversation, and heals the file on the next sync', async () => {
    const record = await store.create(project);
    await store.append(record, conversation.slice(0, 1));
    const file = join(store.projectDir(project), `${record.meta.id}.jsonl`);
    appendFileSync(file, '{"role":"assistant","content":"cut off mid-wri\n');
    appendFileSync(file, '{"role":"wizard","content":"?","timestamp":"x"}\n');
    await store.append(record, conversation.slice(2)); // the tool result's call was "lost"
    const loaded = await store.load(record.meta.id, project);
    assert.ok(loaded);
    assert.equal(loaded.problems.length, 3, loaded.problems.join('\n'));
    assert.equal(problems.length, 3);
    assert.match(problems[0]!, /:2: not valid JSON, skipped/);
    assert.match(problems[1]!, /:3: not a message/);
    assert.match(problems[2]!, /repaired/);
    // The orphan tool result is dropped so a provider accepts the conversation.
    assert.deepEqual(loaded.messages, [conversation[0], conversation[3]]);

    const next: Message[] = [...loaded.messages, { role: 'user', content: 'thanks' }];
    await store.sync(loaded.record, next);
    problems.length = 0;
    const healed = await store.load(record.meta.id, project);
    assert.deepEqual(healed?.messages, next);
    assert.deepEqual(problems, []);
  });

  it('skips and reports a damaged metadata file in list(), without failing', async () => {
    const a = await store.create(project, 'good one');
    writeFileSync(join(store.projectDir(project), 'abcdefgh.json'), '{ not json');
    writeFileSync(join(store.projectDir(project), 'bcdefghi.json'), '{"id":"bcdefghi"}');
    const list = await store.list(project);
    assert.deepEqual(list.map((m) => m.id), [a.meta.id]);
    assert.equal(problems.length, 2);
    assert.equal(await store.load('abcdefgh', project), undefined);
  });

  it('list() is newest-updated first, latest() is the head, and projects do not mix', async () => {
    const first = await store.create(project, 'first');
    const second = await store.create(project, 'second');
    const third = await store.create(project, 'third');
    await store.append(first, [{ role: 'user', content: 'updated last' }]);
    assert.deepEqual((await store.list(project)).map((m) => m.id), [first.meta.id, third.meta.id, second.meta.id]);
    assert.equal((await store.latest(project))?.id, first.meta.id);

    const other = mkdtempSync(join(tmpdir(), 'opendev-other-'));
    assert.deepEqual(await store.list(other), []);
    assert.equal(await store.latest(other), undefined);
    assert.equal(await store.load(first.meta.id, other), undefined);
  });

  it('sync() appends what is new and rewrites the transcript when the history was rewritten', async () => {
    const record = await store.create(project);
    await store.sync(record, conversation.slice(0, 2));
    await store.sync(record, conversation);
    const file = join(store.projectDir(project), `${record.meta.id}.jsonl`);
    assert.equal(readFileSync(file, 'utf8').trim().split('\n').length, 4);
    // Compaction replaced the history with a shorter one.
    const compacted: Message[] = [{ role: 'user', content: 'Summary of earlier work.' }, conversation[3]!];
    await store.sync(record, compacted);
    assert.deepEqual((await store.load(record.meta.id, project))?.messages, compacted);
    // Same length, different content: also a rewrite.
    const edited: Message[] = [{ role: 'user', content: 'Another summary.' }, conversation[3]!];
    await store.sync(record, edited);
    assert.deepEqual((await store.load(record.meta.id, project))?.messages, edited);
    assert.equal(readdirSync(store.projectDir(project)).filter((n) => n.endsWith('.tmp')).length, 0);
  });

  it('titles come from the first user message, at most 50 characters', async () => {
    const record = await store.create(project);
    await store.append(record, [{ role: 'user', content: `  Refactor   the\nparser ${'x'.repeat(80)}` }]);
    assert.equal(record.meta.title.length, 50);
    assert.match(record.meta.title, /^Refactor the parser x+…$/);
    assert.equal(makeTitle('short'), 'short');
  });

  it('encodes project paths readably and without collisions', () => {
    assert.notEqual(encodeProjectPath('/a-b'), encodeProjectPath('/a/b'));
    assert.match(encodeProjectPath('/home/me/my project'), /^home-me-my-project-[0-9a-f]{8}$/);
    assert.equal(encodeProjectPath('/x/y/'), encodeProjectPath('/x/y'));
    assert.match(newSessionId(), /^[a-z0-9]{8}$/);
  });

  it('SessionRecorder creates the session lazily, then appends; detach() starts a new one', async () => {
    const recorder = new SessionRecorder(store, project);
    const agent = { messages: [] as Message[], cost: () => undefined };
    assert.equal(await recorder.save(agent), undefined, 'an empty conversation leaves no session behind');
    assert.equal(existsSync(store.projectDir(project)), false);
    agent.messages = conversation.slice(0, 1);
    const first = await recorder.save(agent);
    agent.messages = conversation;
    await recorder.save(agent);
    assert.equal(recorder.id, first?.meta.id);
    assert.equal((await store.load(recorder.id!, project))?.messages.length, 4);
    recorder.detach();
    agent.messages = [{ role: 'user', content: 'new topic' }];
    await recorder.save(agent);
    assert.notEqual(recorder.id, first?.meta.id);
    assert.equal((await store.list(project)).length, 2);
  });
});

describe('repairConversation', () => {
  it('drops tool calls without results and results without calls', () => {
    const { messages, repaired } = repairConversation([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'Let me look.', toolCalls: [{ id: 'a', name: 'read_file', arguments: '{}' }, { id: 'b', name: 'read_file', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'a', name: 'read_file', content: 'A', isError: false },
      { role: 'tool', toolCallId: 'zz', name: 'read_file', content: 'orphan', isError: false },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'read_file', arguments: '{}' }] },
    ]);
    assert.equal(repaired, 3);
    assert.deepEqual(messages, [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'Let me look.', toolCalls: [{ id: 'a', name: 'read_file', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'a', name: 'read_file', content: 'A', isError: false },
    ]);
  });
});
