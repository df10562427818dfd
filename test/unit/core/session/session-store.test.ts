import * as assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '../../../../src/core/messages';
import { INDEX_FILE } from '../../../../src/core/session/session-index';
import { repairConversation } from '../../../../src/core/session/session-schema';
import { SessionRecorder } from '../../../../src/core/session/session-recorder';
import { encodeProjectPath, makeTitle, newSessionId, SessionStore, SessionWriteError } from '../../../../src/core/session/session-store';
import { withFaultyDisk } from './faulty-disk';

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
  const transcriptOf = (id: string) => join(store.projectDir(project), `${id}.jsonl`);
  const metaOf = (id: string) => join(store.projectDir(project), `${id}.json`);

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'opendev-sessions-'));
    project = mkdtempSync(join(tmpdir(), 'opendev-project-'));
    problems = [];
    clock = Date.parse('2025-01-01T00:00:00Z');
    store = new SessionStore({ home, onProblem: (p) => problems.push(p), now: () => new Date((clock += 1000)) });
  });

  it('keeps sessions per project under OPENDEV_HOME/projects/<encoded path>/ as <id>.json + <id>.jsonl, with the index', async () => {
    const record = await store.create(project);
    assert.match(record.meta.id, /^[a-z0-9]{8}$/);
    await store.append(record, conversation);
    const dir = join(home, 'projects', encodeProjectPath(project));
    assert.deepEqual(readdirSync(dir).sort(), [`${record.meta.id}.json`, `${record.meta.id}.jsonl`, INDEX_FILE].sort(), 'no lock or temp file is left');
    const lines = readFileSync(join(dir, `${record.meta.id}.jsonl`), 'utf8').trim().split('\n');
    assert.equal(lines.length, 4);
    assert.ok(JSON.parse(lines[0]!).timestamp, 'every line has a timestamp');
    const meta = JSON.parse(readFileSync(join(dir, `${record.meta.id}.json`), 'utf8'));
    assert.equal(meta.title, 'What does math.ts export?');
    assert.equal(meta.messageCount, 4);
    assert.equal(meta.workingDir, project);
    const index = JSON.parse(readFileSync(join(dir, INDEX_FILE), 'utf8'));
    assert.deepEqual(
      index.sessions.map((s: { id: string; title: string; messageCount: number }) => [s.id, s.title, s.messageCount]),
      [[record.meta.id, 'What does math.ts export?', 4]],
    );
    assert.deepEqual(problems, []);
  });

  it('loads what it saved, message for message, with the metadata and the cost', async () => {
    const record = await store.create(project);
    await store.sync(record, conversation, { inputTokens: 10, cachedTokens: 2, outputTokens: 3, usd: 0.01, calls: 2 });
    const loaded = await store.load(record.meta.id, project);
    assert.ok(loaded);
    assert.deepEqual(loaded.messages, conversation);
    assert.deepEqual(loaded.problems, []);
    assert.equal(loaded.record.meta.cost?.calls, 2);
    assert.equal(loaded.record.persisted, 4);
    assert.equal((await store.load(record.meta.id))?.record.meta.id, record.meta.id, 'without a working dir it is found in any project');
    assert.equal(await store.load('zzzzzzzz', project), undefined);
    assert.equal(await store.load('../../etc', project), undefined);

    // Continuing a loaded session appends (earlier lines keep their timestamps) instead of rewriting.
    const before = readFileSync(transcriptOf(record.meta.id), 'utf8');
    await store.sync(loaded.record, [...loaded.messages, { role: 'user', content: 'more' }]);
    const after = readFileSync(transcriptOf(record.meta.id), 'utf8');
    assert.ok(after.startsWith(before));
    assert.equal(after.trim().split('\n').length, 5);
  });

  it('keeps the one-line summary of each tool result, so a resumed session still shows it', async () => {
    const withSummary: Message[] = [conversation[0]!, conversation[1]!, { ...(conversation[2] as Extract<Message, { role: 'tool' }>), summary: '✓ Read math.ts (1 lines, 23 chars)' }, conversation[3]!];
    const record = await store.create(project);
    await store.sync(record, withSummary);
    const tool = (await store.load(record.meta.id, project))?.messages.find((m) => m.role === 'tool');
    assert.equal(tool?.role === 'tool' ? tool.summary : undefined, '✓ Read math.ts (1 lines, 23 chars)');
  });

  it('saves metadata atomically: a temp file renamed into place; temp files of killed writers are swept', async () => {
    const record = await store.create(project);
    const dir = store.projectDir(project);
    // A writer killed mid-save leaves only its temp file behind, which readers ignore.
    const leftover = join(dir, `${record.meta.id}.json.999999999.deadbeef.tmp`);
    writeFileSync(leftover, '{"id": "trunc');
    const old = new Date(Date.now() - 120_000);
    utimesSync(leftover, old, old);
    record.meta.title = 'renamed';
    await store.save(record.meta);
    assert.equal(JSON.parse(readFileSync(metaOf(record.meta.id), 'utf8')).title, 'renamed');
    assert.deepEqual((await store.list(project)).map((m) => m.title), ['renamed']);
    assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith('.tmp')), [], 'the dead writer\'s temp file is gone after listing');
    assert.deepEqual(problems, []);
  });

  it('skips and reports a damaged line in the middle, repairs the conversation, and rewrites the file on the next save', async () => {
    const record = await store.create(project);
    await store.append(record, conversation.slice(0, 1));
    const file = transcriptOf(record.meta.id);
    appendFileSync(file, '{"role":"assistant","content":"cut off mid-wri\n');
    appendFileSync(file, '{"role":"wizard","content":"?","timestamp":"x"}\n');
    appendFileSync(file, `${JSON.stringify({ ...conversation[2], timestamp: 'x' })}\n${JSON.stringify({ ...conversation[3], timestamp: 'x' })}\n`);
    const loaded = await store.load(record.meta.id, project);
    assert.ok(loaded);
    assert.equal(loaded.problems.length, 3, loaded.problems.join('\n'));
    assert.match(problems[0]!, /:2: not valid JSON, skipped/);
    assert.match(problems[1]!, /:3: not a message/);
    assert.match(problems[2]!, /repaired/);
    // The orphan tool result (its call was on the lost line) is dropped so a provider accepts the conversation.
    assert.deepEqual(loaded.messages, [conversation[0], conversation[3]]);

    const next: Message[] = [...loaded.messages, { role: 'user', content: 'thanks' }];
    await store.sync(loaded.record, next);
    problems.length = 0;
    assert.deepEqual((await store.load(record.meta.id, project))?.messages, next);
    assert.deepEqual(problems, []);
  });

  it('ignores a last line torn by a killed writer, and the next append replaces it', async () => {
    const record = await store.create(project);
    await store.sync(record, conversation.slice(0, 1));
    const file = transcriptOf(record.meta.id);
    appendFileSync(file, '{"role":"assistant","content":"half a mess');
    const loaded = await store.load(record.meta.id, project);
    assert.deepEqual(loaded?.messages, conversation.slice(0, 1));
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /last line was cut off by an interrupted write; ignored/);

    await store.sync(loaded!.record, [conversation[0]!, { role: 'assistant', content: 'Hello.', toolCalls: [] }]);
    const lines = readFileSync(file, 'utf8').split('\n');
    assert.equal(lines.length, 3, 'two whole lines and the final newline');
    assert.equal(lines[2], '');
    assert.ok(!readFileSync(file, 'utf8').includes('half a mess'));
    problems.length = 0;
    assert.equal((await store.load(record.meta.id, project))?.messages.length, 2);
    assert.deepEqual(problems, []);
  });

  it('keeps a whole last message whose newline never made it, and adds the newline before the next one', async () => {
    const record = await store.create(project);
    await store.sync(record, conversation.slice(0, 1));
    const file = transcriptOf(record.meta.id);
    truncateSync(file, readFileSync(file).length - 1);
    const loaded = await store.load(record.meta.id, project);
    assert.deepEqual(loaded?.messages, conversation.slice(0, 1));
    assert.deepEqual(problems, []);
    await store.sync(loaded!.record, [conversation[0]!, { role: 'assistant', content: 'Hello.', toolCalls: [] }]);
    assert.equal((await store.load(record.meta.id, project))?.messages.length, 2);
    assert.deepEqual(problems, []);
  });

  it('lists from sessions-index.json; a missing or corrupt index is rebuilt from the files with a note', async () => {
    const ids: string[] = [];
    for (const title of ['first', 'second', 'third']) ids.push((await store.create(project, title)).meta.id);
    const index = join(store.projectDir(project), INDEX_FILE);
    assert.deepEqual((await store.list(project)).map((m) => m.title), ['third', 'second', 'first']);
    assert.deepEqual(problems, [], 'creating sessions in a new project is no news');

    writeFileSync(index, '{"version": 1, "sessions": [ {"id": "trunc');
    assert.deepEqual((await store.list(project)).map((m) => m.title), ['third', 'second', 'first']);
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /sessions-index\.json: corrupt \(not valid JSON\); rebuilt from 3 session file\(s\)/);
    assert.equal(JSON.parse(readFileSync(index, 'utf8')).sessions.length, 3, 'the rebuilt index is saved');

    writeFileSync(index, JSON.stringify({ version: 1, workingDir: project, sessions: [{ id: ids[0], title: 42 }] }));
    await store.list(project);
    assert.match(problems[1]!, /corrupt \(not a sessions index: sessions\.0\.title/);

    await store.list(project);
    assert.equal(problems.length, 2, 'once rebuilt, listing is quiet');
    rmSync(index);
    assert.equal((await store.list(project)).length, 3);
    assert.match(problems[2]!, /sessions-index\.json: missing; rebuilt from 3 session file\(s\)/);
    assert.ok(existsSync(index));
  });

  it('never trusts the index over the files: loading reads the session files, listing follows the folder', async () => {
    const a = await store.create(project, 'real title');
    await store.sync(a, conversation);
    const b = await store.create(project, 'deleted by hand');
    const index = join(store.projectDir(project), INDEX_FILE);
    const edited = JSON.parse(readFileSync(index, 'utf8'));
    edited.sessions.find((s: { id: string }) => s.id === a.meta.id).messageCount = 999;
    writeFileSync(index, JSON.stringify(edited));
    const loaded = await store.load(a.meta.id, project);
    assert.equal(loaded?.record.meta.messageCount, 4);
    assert.equal(loaded?.messages.length, 4);

    rmSync(metaOf(b.meta.id));
    const c = newSessionId();
    writeFileSync(metaOf(c), JSON.stringify({ id: c, title: 'copied in', workingDir: project, createdAt: '2025-02-01T00:00:00Z', updatedAt: '2025-02-01T00:00:00Z', messageCount: 0 }));
    assert.deepEqual((await store.list(project)).map((m) => m.title).sort(), ['copied in', 'real title']);
    assert.equal(JSON.parse(readFileSync(index, 'utf8')).sessions.length, 2, 'the index follows');
  });

  it('skips and reports a damaged metadata file in list(), without failing', async () => {
    const a = await store.create(project, 'good one');
    writeFileSync(metaOf('abcdefgh'), '{ not json');
    writeFileSync(metaOf('bcdefghi'), '{"id":"bcdefghi"}');
    const list = await store.list(project);
    assert.deepEqual(list.map((m) => m.id), [a.meta.id]);
    assert.equal(problems.filter((p) => /abcdefgh\.json: not valid JSON|bcdefghi\.json: not session metadata/.test(p)).length, 2, problems.join('\n'));
    assert.equal(await store.load('abcdefgh', project), undefined);
  });

  it('migrates a legacy single-file session (inline messages) on load, keeping a .bak of the original', async () => {
    const dir = store.projectDir(project);
    mkdirSync(dir, { recursive: true });
    const id = 'legacy01';
    const original = JSON.stringify({
      id,
      title: 'Old session',
      working_directory: project,
      created_at: '2024-06-01T10:00:00Z',
      updated_at: '2024-06-01T10:05:00Z',
      messages: [
        { role: 'user', content: 'What does math.ts export?', timestamp: '2024-06-01T10:00:00Z' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"file_path":"math.ts"}' } }] },
        { role: 'tool', tool_call_id: 'c1', name: 'read_file', content: 'export const PI = 3.14;' },
        { role: 'assistant', content: 'It exports PI.' },
        { role: 'narrator', content: 'not a message' },
      ],
    });
    writeFileSync(metaOf(id), original);

    const loaded = await store.load(id, project);
    assert.ok(loaded);
    assert.deepEqual(loaded.messages, conversation);
    assert.equal(loaded.record.meta.title, 'Old session');
    assert.equal(loaded.record.meta.createdAt, '2024-06-01T10:00:00Z');
    assert.equal(readFileSync(join(dir, `${id}.json.bak`), 'utf8'), original, 'the original is kept byte for byte');
    const meta = JSON.parse(readFileSync(metaOf(id), 'utf8'));
    assert.equal(meta.messages, undefined, 'the metadata no longer holds the messages');
    assert.equal(readFileSync(transcriptOf(id), 'utf8').trim().split('\n').length, 4);
    assert.ok(problems.some((p) => /message 5: not a message.*skipped/.test(p)), problems.join('\n'));
    assert.ok(problems.some((p) => /migrated from the single-file format \(4 messages\).*legacy01\.json\.bak/.test(p)), problems.join('\n'));

    // Done once: the next load is an ordinary one, and the session lists and continues like any other.
    problems.length = 0;
    assert.deepEqual((await store.load(id, project))?.messages, conversation);
    assert.deepEqual(problems, []);
    await store.sync(loaded.record, [...loaded.messages, { role: 'user', content: 'And add?' }]);
    assert.deepEqual((await store.list(project)).map((m) => [m.id, m.messageCount]), [[id, 5]]);
  });

  it('listing migrates a legacy session too', async () => {
    const dir = store.projectDir(project);
    mkdirSync(dir, { recursive: true });
    writeFileSync(metaOf('legacy02'), JSON.stringify({ id: 'legacy02', title: 'Listed', messages: [{ role: 'user', content: 'hi' }] }));
    const list = await store.list(project);
    assert.deepEqual(list.map((m) => [m.id, m.title, m.messageCount, m.workingDir]), [['legacy02', 'Listed', 1, project]]);
    assert.ok(existsSync(join(dir, 'legacy02.json.bak')));
    assert.deepEqual((await store.load('legacy02', project))?.messages, [{ role: 'user', content: 'hi' }]);
  });

  it('when another process wrote the session meanwhile, the conversation continues in a new session and nothing is overwritten', async () => {
    const record = await store.create(project);
    await store.sync(record, conversation.slice(0, 1));
    // The same session, resumed by another front end, which saves first.
    const other = new SessionStore({ home });
    const theirs = (await other.load(record.meta.id, project))!;
    await other.sync(theirs.record, [...theirs.messages, { role: 'assistant', content: 'Their answer.', toolCalls: [] }]);

    const ours: Message[] = [conversation[0]!, { role: 'assistant', content: 'Our answer.', toolCalls: [] }];
    await store.sync(record, ours);
    assert.notEqual(record.meta.id, theirs.record.meta.id, 'ours moved to a new session');
    assert.match(problems.at(-1)!, new RegExp(`session ${theirs.record.meta.id} was changed by another OpenDev process.*continues as session ${record.meta.id}`));
    assert.deepEqual((await store.load(theirs.record.meta.id, project))?.messages.map((m) => m.content), ['What does math.ts export?', 'Their answer.']);
    assert.deepEqual((await store.load(record.meta.id, project))?.messages.map((m) => m.content), ['What does math.ts export?', 'Our answer.']);
    await store.sync(record, [...ours, { role: 'user', content: 'next' }]);
    assert.equal((await store.load(record.meta.id, project))?.messages.length, 3, 'and goes on there');
    assert.equal((await store.list(project)).length, 2);
  });

  it('a full disk mid-append: a clear error, only whole lines on disk, and the next save writes everything', async () => {
    const record = await store.create(project);
    await store.sync(record, conversation.slice(0, 2));
    const file = transcriptOf(record.meta.id);
    const saved = readFileSync(file, 'utf8');
    const err = await withFaultyDisk([{ kind: 'write', code: 'ENOSPC', match: (p) => p.endsWith('.jsonl') }], () => store.sync(record, conversation)).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof SessionWriteError, String(err));
    assert.equal(err.reason, 'disk_full');
    assert.match(err.message, new RegExp(`Could not save session ${record.meta.id}: the disk is full \\(ENOSPC\\)\\. What was saved before is intact\\.`));
    assert.equal(readFileSync(file, 'utf8'), saved, 'the half-written append was cut back');
    assert.equal(JSON.parse(readFileSync(metaOf(record.meta.id), 'utf8')).messageCount, 2);

    await store.sync(record, conversation);
    problems.length = 0;
    assert.deepEqual((await store.load(record.meta.id, project))?.messages, conversation);
    assert.deepEqual(problems, []);
  });

  it('no permission to write: a clear error and the files as they were', async () => {
    const record = await store.create(project, 'kept');
    await store.sync(record, conversation.slice(0, 1));
    const metaBefore = readFileSync(metaOf(record.meta.id), 'utf8');
    record.meta.title = 'changed';
    const err = await withFaultyDisk([{ kind: 'open', code: 'EACCES', match: (p) => p.endsWith('.tmp') }], () => store.sync(record, conversation)).catch((e: unknown) => e);
    assert.ok(err instanceof SessionWriteError);
    assert.equal(err.reason, 'permission');
    assert.match(err.message, /no permission to write .*\(EACCES\)/);
    assert.equal(readFileSync(metaOf(record.meta.id), 'utf8'), metaBefore);
    assert.equal((await store.load(record.meta.id, project))?.record.meta.title, 'kept');
  });

  it('list() is newest-updated first, latest() is the head, and projects do not mix', async () => {
    const first = await store.create(project, 'first');
    const second = await store.create(project, 'second');
    const third = await store.create(project, 'third');
    await store.append(first, [{ role: 'user', content: 'updated last' }]);
    assert.deepEqual((await store.list(project)).map((m) => m.id), [first.meta.id, third.meta.id, second.meta.id]);
    assert.equal((await store.latest(project))?.id, first.meta.id);
    // latest() skips a session whose metadata file became unreadable, whatever the index says.
    writeFileSync(metaOf(first.meta.id), '{ damaged');
    assert.equal((await store.latest(project))?.id, third.meta.id);

    const other = mkdtempSync(join(tmpdir(), 'opendev-other-'));
    assert.deepEqual(await store.list(other), []);
    assert.equal(await store.latest(other), undefined);
    assert.equal(await store.load(second.meta.id, other), undefined);
  });

  it('sync() appends what is new and rewrites the transcript when the history was rewritten', async () => {
    const record = await store.create(project);
    await store.sync(record, conversation.slice(0, 2));
    await store.sync(record, conversation);
    assert.equal(readFileSync(transcriptOf(record.meta.id), 'utf8').trim().split('\n').length, 4);
    const compacted: Message[] = [{ role: 'user', content: 'Summary of earlier work.' }, conversation[3]!];
    await store.sync(record, compacted);
    assert.deepEqual((await store.load(record.meta.id, project))?.messages, compacted);
    const edited: Message[] = [{ role: 'user', content: 'Another summary.' }, conversation[3]!];
    await store.sync(record, edited);
    assert.deepEqual((await store.load(record.meta.id, project))?.messages, edited);
    assert.equal(readdirSync(store.projectDir(project)).filter((n) => n.endsWith('.tmp')).length, 0);
  });

  it('syncTranscript() appends messages without touching the metadata (the per-message path)', async () => {
    const record = await store.create(project);
    await store.syncTranscript(record, conversation.slice(0, 3));
    assert.equal(readFileSync(transcriptOf(record.meta.id), 'utf8').trim().split('\n').length, 3);
    assert.equal(JSON.parse(readFileSync(metaOf(record.meta.id), 'utf8')).messageCount, 0);
    const loaded = await store.load(record.meta.id, project);
    assert.equal(loaded?.record.meta.messageCount, 3, 'the transcript is the truth when loading');
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
