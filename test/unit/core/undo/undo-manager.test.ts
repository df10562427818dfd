import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolDispatcher } from '../../../../src/core/agent/tool-dispatcher';
import type { ToolCall } from '../../../../src/core/messages';
import { encodeProjectPath } from '../../../../src/core/session/session-store';
import { createBuiltinRegistry } from '../../../../src/core/tools/builtin-tools';
import { FileTimeTracker } from '../../../../src/core/tools/file-time-tracker';
import { TodoStore } from '../../../../src/core/todos/todo-store';
import { gcIfDue } from '../../../../src/core/undo/gc-schedule';
import { ShadowRepo } from '../../../../src/core/undo/shadow-repo';
import { UndoManager, type UndoSettings } from '../../../../src/core/undo/undo-manager';
import { toolContext } from '../../../helpers/tool-context';
import { gitDirState, initProjectRepo, projectGit, workspaceState, writeFiles } from './workspace-state';

/** UndoManager around the real tools, called the way the executor calls them: one dispatch per step. */
describe('UndoManager', function () {
  this.timeout(60_000);
  let workspace: string;
  let home: string;
  let notices: Array<{ message: string; level: string }>;
  let undo: UndoManager;
  let dispatcher: ToolDispatcher;
  let calls = 0;
  const registry = createBuiltinRegistry();

  const start = (settings: Partial<UndoSettings> = {}) => {
    undo = new UndoManager({
      workspaceRoot: workspace,
      home,
      sessionId: 'abcd1234',
      changesFiles: (name) => {
        const tool = registry.get(name);
        return !!tool && !tool.readOnly && tool.category !== 'todo';
      },
      onNotice: (message, level) => notices.push({ message, level }),
      // A generous snapshot budget: on a loaded machine (the unit lane beside the VS Code stages) the
      // 2 s default abandons a cold first snapshot, and the step is then rightly not undoable. Only the
      // budget's own test sets it lower.
      settings: { warmUp: false, budgetMs: 60_000, ...settings },
    });
    dispatcher = new ToolDispatcher(registry, undo.lifecycle);
  };
  const files = new FileTimeTracker();
  const todos = new TodoStore();
  /** One step: the calls through the dispatcher, then the step boundary; resolves when its snapshot is in. */
  const step = async (...list: Array<[string, Record<string, unknown>]>) => {
    const toolCalls: ToolCall[] = list.map(([name, args]) => ({ id: `c${++calls}`, name, arguments: JSON.stringify(args) }));
    const results = await dispatcher.dispatch(toolCalls, toolContext({ workspaceRoot: workspace, files, todos }));
    for (const r of results) assert.ok(r.ok, r.output);
    undo.afterStep(toolCalls, results);
    await undo.idle();
  };
  const state = () => workspaceState(workspace);

  beforeEach(() => {
    workspace = mkdtempSync(join(tmpdir(), 'opendev-undo-ws-'));
    home = mkdtempSync(join(tmpdir(), 'opendev-undo-home-'));
    notices = [];
    writeFiles(workspace, { 'keep.txt': 'keep\n', 'notes.md': '# notes\n' });
    start();
  });
  afterEach(async () => {
    await undo.dispose();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  it('a held warm-up snapshot is taken only once it is started; a step that begins first snapshots by itself', async () => {
    await undo.dispose();
    const shadow = join(home, 'snapshot', encodeProjectPath(workspace));
    let held: (() => void) | undefined;
    const open = (sessionId: string) =>
      new UndoManager({ workspaceRoot: workspace, home, sessionId, changesFiles: () => true, settings: { warmUp: true, budgetMs: 60_000 }, holdWarmUp: (s) => (held = s) });
    undo = open('abcd1234');
    await undo.idle();
    assert.ok(held, 'the warm-up was handed over');
    assert.equal(existsSync(shadow), false, 'no git work before the warm-up starts');
    held();
    await undo.idle();
    assert.ok(existsSync(shadow), 'the warm-up snapshot made the shadow repository');

    // A step before the warm-up started: it is undoable, and the late start adds nothing.
    await undo.dispose();
    undo = open('efgh5678');
    dispatcher = new ToolDispatcher(registry, undo.lifecycle);
    await step(['write_file', { file_path: 'early.txt', content: 'early\n' }]);
    held!();
    await undo.idle();
    assert.equal((await undo.undoLast()).status, 'undone');
    assert.equal(existsSync(join(workspace, 'early.txt')), false);
  });

  it('undo with nothing to undo says so', async () => {
    assert.deepEqual(await undo.undoLast(), { status: 'nothing', message: 'Nothing to undo: no step of this session has changed files yet.' });
    await step(['read_file', { file_path: 'keep.txt' }]);
    assert.equal((await undo.undoLast()).status, 'nothing', 'a read-only step is not undoable');
  });

  it('puts back only what the step changed: files the user edited meanwhile stay as they are', async () => {
    await step(['write_file', { file_path: 'a.txt', content: 'agent\n' }], ['run_command', { command: 'echo more >> notes.md' }]);
    writeFiles(workspace, { 'keep.txt': 'the user typed this\n', 'mine.txt': 'new user file\n' });
    const userState = state();
    const outcome = await undo.undoLast();
    assert.equal(outcome.status, 'undone');
    assert.match(outcome.message, /^Undid step 1 \(write_file, run_command\): 1 file restored, 1 file removed\./);
    const expected = { ...userState, 'notes.md': state()['notes.md'] };
    delete (expected as Record<string, string>)['a.txt'];
    assert.deepEqual(state(), expected);
    assert.equal(readFileSync(join(workspace, 'notes.md'), 'utf8'), '# notes\n');
    assert.equal(readFileSync(join(workspace, 'keep.txt'), 'utf8'), 'the user typed this\n');
    assert.match(outcome.note ?? '', /The user undid step 1 with \/undo[\s\S]*- restored: notes\.md\n- removed: a\.txt/);
    assert.equal((await undo.undoLast()).message, 'Nothing left to undo: every step of this session that changed files is undone.');
  });

  it('says when a file changed again after the step, and still puts it back', async () => {
    await step(['run_command', { command: 'echo agent > notes.md' }]);
    writeFiles(workspace, { 'notes.md': 'user edit on top\n' });
    const outcome = await undo.undoLast();
    assert.match(outcome.message, /Changed again after step 1 and put back anyway: notes\.md\./);
    assert.equal(readFileSync(join(workspace, 'notes.md'), 'utf8'), '# notes\n');
  });

  it('restoreTo(step) goes back to just before that step; steps are numbered as the session counts them', async () => {
    const s0 = state();
    await step(['write_file', { file_path: 'one.txt', content: '1\n' }]);
    const s1 = state();
    await step(['read_file', { file_path: 'one.txt' }]);
    await step(['run_command', { command: 'mkdir -p deep/er && echo 3 > deep/er/three.txt && rm keep.txt' }]);
    await step(['run_command', { command: 'echo 4 >> one.txt' }]);
    assert.deepEqual(undo.history().map((h) => h.step), [1, 3, 4]);
    const back = await undo.restoreTo(3);
    assert.deepEqual(back.steps, [4, 3]);
    assert.deepEqual(state(), s1, 'deep/er/ is gone with the file that was created in it');
    await undo.restoreTo(1);
    assert.deepEqual(state(), s0);
    assert.equal((await undo.restoreTo(1)).status, 'nothing');
    assert.match(await undo.describeHistory(), /step {3}4 .* \(undone\)/);
  });

  it('records every file-changing call in memory (the last 50) and in operations.jsonl, and restores from there', async function () {
    // 54 steps of two snapshots each (about 450 git processes): 60 s was not enough on a loaded machine.
    this.timeout(300_000);
    const s0 = state();
    await step(['write_file', { file_path: 'x.txt', content: 'x\n' }], ['read_file', { file_path: 'keep.txt' }], ['run_command', { command: 'true' }]);
    await step(['write_todos', { todos: [{ title: 'a todo' }] }]);
    assert.deepEqual(undo.operations.map((o) => [o.step, o.tool, o.paths, o.command, o.ok]), [
      [1, 'write_file', ['x.txt'], undefined, true],
      [1, 'run_command', [], 'true', true],
    ]);
    for (let i = 0; i < 52; i++) await step(['run_command', { command: `echo ${i} > n${i % 3}.txt` }], ['run_command', { command: 'true' }]);
    assert.equal(undo.operations.length, 50);
    assert.equal(undo.operations.at(-1)?.step, 54);
    assert.equal(undo.history().length, 50, 'the last 50 changing steps in memory');
    const log = join(home, 'projects', encodeProjectPath(workspace), 'operations.jsonl');
    const lines = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines.filter((l) => l.type === 'operation').length, 106);
    assert.ok(lines.some((l) => l.type === 'step' && l.step === 1 && l.changed.some((c: { path: string }) => c.path === 'x.txt')));
    // Step 1 has left memory; its record is read back from the log.
    const back = await undo.restoreTo(1);
    assert.equal(back.steps?.length, 53);
    assert.deepEqual(state(), s0);
  });

  it("undoes changes inside a nested repository as plain files, leaving its .git alone", async () => {
    writeFiles(workspace, { 'vendor/lib/index.js': 'v1\n' });
    projectGit(join(workspace, 'vendor/lib'), 'init', '-q');
    projectGit(join(workspace, 'vendor/lib'), 'add', '-A');
    projectGit(join(workspace, 'vendor/lib'), 'commit', '-qm', 'lib');
    const nested = gitDirState(join(workspace, 'vendor/lib/.git'));
    const s0 = state();
    await step(['run_command', { command: 'echo v2 > vendor/lib/index.js && echo new > vendor/lib/extra.js' }]);
    const outcome = await undo.undoLast();
    assert.match(outcome.message, /restored vendor\/lib\/index\.js\n {2}removed vendor\/lib\/extra\.js/);
    assert.deepEqual(state(), s0);
    assert.deepEqual(gitDirState(join(workspace, 'vendor/lib/.git')), nested);
  });

  it('a call refused before it runs (a hook, the user) is neither logged nor snapshotted', async () => {
    dispatcher = new ToolDispatcher(registry, {
      before: async (call, ctx) => (call.arguments.includes('denied') ? { proceed: false, result: { ok: false, output: 'refused', summary: 'refused', errorKind: 'rejected' } } : undo.lifecycle.before!(call, ctx)),
      after: (call, result, ctx) => undo.lifecycle.after!(call, result, ctx),
    });
    const calls: ToolCall[] = [{ id: 'd1', name: 'write_file', arguments: JSON.stringify({ file_path: 'denied.txt', content: 'x' }) }];
    const results = await dispatcher.dispatch(calls, toolContext({ workspaceRoot: workspace, files }));
    undo.afterStep(calls, results);
    await undo.idle();
    assert.deepEqual(undo.operations, []);
    assert.equal((await undo.undoLast()).status, 'nothing');
  });

  it('a snapshot over its time budget is abandoned with a warning; the step runs, and is not undoable', async () => {
    await undo.dispose();
    start({ budgetMs: 0 });
    await step(['write_file', { file_path: 'late.txt', content: 'x\n' }]);
    assert.ok(existsSync(join(workspace, 'late.txt')), 'the call ran without waiting');
    assert.ok(notices.some((n) => n.level === 'warning' && /Step 1 cannot be undone: the snapshot before it took longer than 0 ms/.test(n.message)), JSON.stringify(notices));
    assert.equal((await undo.undoLast()).status, 'nothing');
  });

  it('a file over the size cap is skipped with a note; a step that created one still removes it on undo', async () => {
    await undo.dispose();
    start({ maxFileBytes: 1000 });
    const s0 = state();
    await step(['run_command', { command: 'head -c 2000 /dev/zero > big.bin && echo s > small.txt' }]);
    assert.ok(notices.some((n) => /Not snapshotted: big\.bin \(0\.0 MB, over the 0 MB cap\); \/undo cannot restore it\./.test(n.message)), JSON.stringify(notices));
    await step(['run_command', { command: 'head -c 3000 /dev/zero > big.bin' }]);
    const outcome = await undo.undoLast();
    assert.match(outcome.message, /Not restored \(over the snapshot size cap\): big\.bin\./);
    assert.equal(readFileSync(join(workspace, 'big.bin')).length, 3000, 'its earlier content was never snapshotted');
    await undo.undoLast();
    assert.deepEqual(state(), s0, 'the big file the first step created is removed with it');
  });

  it('a damaged shadow repository is replaced with a warning, and undo works again from there', async () => {
    await undo.dispose();
    start();
    await step(['write_file', { file_path: 'before.txt', content: 'b\n' }]);
    const gitDir = join(home, 'snapshot', encodeProjectPath(workspace));
    writeFileSync(join(gitDir, 'HEAD'), 'garbage');
    rmSync(join(gitDir, 'objects'), { recursive: true, force: true });
    const s1 = state();
    await step(['write_file', { file_path: 'after.txt', content: 'a\n' }]);
    assert.ok(notices.some((n) => n.level === 'warning' && /were damaged: they are set aside in .*\.damaged-\d+ and a new store is in use/.test(n.message)), JSON.stringify(notices));
    await undo.undoLast();
    assert.deepEqual(state(), s1);
    const old = await undo.undoLast();
    assert.equal(old.status, 'failed');
    assert.match(old.message, /Step 1 cannot be undone: its snapshot is no longer in the snapshot store.*Nothing was changed\./);
    assert.ok(existsSync(join(workspace, 'before.txt')));
  });

  it('a store git no longer recognises is set aside, not deleted: the steps before it can still be undone', async () => {
    await undo.dispose();
    start();
    const s0 = state();
    await step(['write_file', { file_path: 'one.txt', content: '1\n' }], ['run_command', { command: 'echo changed > notes.md' }]);
    const gitDir = join(home, 'snapshot', encodeProjectPath(workspace));
    writeFileSync(join(gitDir, 'HEAD'), 'garbage');
    await step(['write_file', { file_path: 'two.txt', content: '2\n' }]);
    assert.ok(notices.some((n) => /set aside in .*\.damaged-\d+/.test(n.message)), JSON.stringify(notices));
    assert.match((await undo.undoLast()).message, /^Undid step 2 /);
    assert.match((await undo.undoLast()).message, /^Undid step 1 \(write_file, run_command\): 1 file restored, 1 file removed\./);
    assert.deepEqual(state(), s0);
    // The next snapshot works from the new store alone (the restored files' content joined it).
    await step(['run_command', { command: 'echo again > notes.md' }]);
    assert.match((await undo.undoLast()).message, /^Undid step 3 /);
    assert.deepEqual(state(), s0);
  });

  it('a step its process never finished (killed mid-step) is undone by the next process of the session', async () => {
    const s0 = state();
    await step(['write_file', { file_path: 'done.txt', content: 'done\n' }]);
    const s1 = state();
    // Step 2 writes, and its process dies before the step boundary: no afterStep, no dispose.
    const calls: ToolCall[] = [
      { id: 'k1', name: 'write_file', arguments: JSON.stringify({ file_path: 'half.txt', content: 'half\n' }) },
      { id: 'k2', name: 'run_command', arguments: JSON.stringify({ command: 'rm keep.txt && echo cut > notes.md' }) },
    ];
    await dispatcher.dispatch(calls, toolContext({ workspaceRoot: workspace, files, todos }));
    await undo.idle();
    const resumed = await UndoManager.open({ workspaceRoot: workspace, home, sessionId: 'abcd1234', changesFiles: () => true, onNotice: (message, level) => notices.push({ message, level }), settings: { warmUp: false } });
    undo = resumed;
    assert.match(await resumed.describeHistory(), /step {3}2 .* 3 files {2}write_file, run_command\n {2}step {3}1 /);
    assert.ok(notices.some((n) => /Step 2 was cut short \(OpenDev stopped during it\); the changes it made are recorded/.test(n.message)), JSON.stringify(notices));
    assert.match((await resumed.undoLast()).message, /^Undid step 2 \(write_file, run_command\): 2 files restored, 1 file removed\./);
    assert.deepEqual(state(), s1);
    assert.match((await resumed.undoLast()).message, /^Undid step 1 /);
    assert.deepEqual(state(), s0);
    // Closed once: a third process finds nothing left open.
    await resumed.dispose();
    undo = await UndoManager.open({ workspaceRoot: workspace, home, sessionId: 'abcd1234', changesFiles: () => true, settings: { warmUp: false } });
    assert.equal((await undo.undoLast()).status, 'nothing');
  });

  it("a step's start record is on disk before its first call runs", async () => {
    const log = join(home, 'projects', encodeProjectPath(workspace), 'operations.jsonl');
    const starts = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((l) => l.includes('"type":"start"')) : []);
    const seen: number[] = [];
    dispatcher = new ToolDispatcher(registry, {
      before: async (call, ctx) => {
        const gate = await undo.lifecycle.before!(call, ctx);
        seen.push(starts().length); // read synchronously: nothing else of this process ran in between
        return gate;
      },
      after: (call, result, ctx) => undo.lifecycle.after!(call, result, ctx),
    });
    await step(['write_file', { file_path: 'a.txt', content: 'a\n' }], ['write_file', { file_path: 'b.txt', content: 'b\n' }]);
    await step(['run_command', { command: 'true' }]);
    assert.deepEqual(seen, [1, 1, 2], 'one start record per step, written before its first call');
    assert.match(starts()[0]!, /"step":1,"before":"[0-9a-f]{40}".*"tool":"write_file","call":"c\d+"/);
  });

  it("never touches the project's .git, even when a command commits in it", async () => {
    initProjectRepo(workspace);
    const s0 = state();
    await step(['run_command', { command: 'echo x > src/new.ts && rm README.md && git -c user.email=a@b -c user.name=n commit -qam wip' }]);
    const head = readFileSync(join(workspace, '.git', 'HEAD'), 'utf8');
    const refs = readdirSync(join(workspace, '.git', 'refs', 'heads'));
    await undo.undoLast();
    assert.deepEqual(state(), s0, 'the files are back; the commit the command made is the user repo’s business');
    assert.equal(readFileSync(join(workspace, '.git', 'HEAD'), 'utf8'), head);
    assert.deepEqual(readdirSync(join(workspace, '.git', 'refs', 'heads')), refs);
  });

  it('a session resumed under its id goes on numbering, and /undo reaches the steps from before', async () => {
    const s0 = state();
    await step(['write_file', { file_path: 'first.txt', content: '1\n' }]);
    await undo.dispose();
    const options = { workspaceRoot: workspace, home, changesFiles: () => true, settings: { warmUp: false } };
    const other = await UndoManager.open({ ...options, sessionId: 'other123' });
    assert.equal((await other.undoLast()).status, 'nothing', "another session's steps are not its own");
    await other.dispose();
    undo = await UndoManager.open({ ...options, sessionId: 'abcd1234', onNotice: (message, level) => notices.push({ message, level }) });
    dispatcher = new ToolDispatcher(registry, undo.lifecycle);
    await step(['run_command', { command: 'echo 2 > second.txt' }]);
    assert.deepEqual(undo.history().map((h) => h.step), [1, 2]);
    assert.match((await undo.undoLast()).message, /^Undid step 2 /);
    assert.match((await undo.undoLast()).message, /^Undid step 1 /);
    assert.deepEqual(state(), s0);
  });

  it('gc runs at most once a day per project, and not on a new store', async () => {
    const repo = new ShadowRepo(join(home, 'snapshot', 'p'), workspace, 's');
    await repo.ensure();
    assert.equal(await gcIfDue(repo), 'not_due', 'a new store starts its day');
    const twoDaysAgo = (Date.now() - 2 * 24 * 3600 * 1000) / 1000;
    utimesSync(join(repo.gitDir, 'opendev-last-gc'), twoDaysAgo, twoDaysAgo);
    writeFileSync(join(repo.gitDir, 'indexes', 'dead.index'), 'x');
    utimesSync(join(repo.gitDir, 'indexes', 'dead.index'), twoDaysAgo, twoDaysAgo);
    const day = 24 * 3600 * 1000;
    for (const [name, ageDays] of [['damaged-old', 8], ['damaged-new', 6], ['new-old', 2], ['new-fresh', 0]] as const) {
      const dir = name.startsWith('damaged') ? `${repo.gitDir}.damaged-${Date.now() - ageDays * day}` : `${repo.gitDir}.new-1-${name === 'new-old' ? 'aaaaaaaa' : 'bbbbbbbb'}`;
      mkdirSync(join(dir, 'objects'), { recursive: true });
      utimesSync(dir, (Date.now() - ageDays * day) / 1000, (Date.now() - ageDays * day) / 1000);
    }
    assert.equal(await gcIfDue(repo), 'ran');
    assert.ok(!existsSync(join(repo.gitDir, 'indexes', 'dead.index')), "a crashed session's index is cleaned up");
    const siblings = readdirSync(join(home, 'snapshot')).sort();
    assert.equal(siblings.length, 3, `a damaged store goes after a week, a half-built one after a day: ${siblings.join(', ')}`);
    assert.ok(siblings.includes('p') && siblings.includes('p.new-1-bbbbbbbb') && siblings.some((n) => n.startsWith('p.damaged-')));
    assert.equal(await gcIfDue(repo), 'not_due');
  });
});
