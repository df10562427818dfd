import * as assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Message } from '../../../../src/core/messages';
import { SessionLockedError, withFileLock } from '../../../../src/core/files/file-lock';
import { SessionStore } from '../../../../src/core/session/session-store';

// Bundled (esbuild.config.mjs): a child that loads in half the time.
const CHILD = join(__dirname, 'session-child.bundle.js');

/** Starts the helper process; `lines` collects what it prints; `goOn` ends its standard input, which it waits for. */
function child(...args: string[]): { process: ChildProcess; lines: string[]; waitFor(line: RegExp): Promise<string>; goOn(): void; exit: Promise<number | null> } {
  const proc = spawn(process.execPath, [CHILD, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: Array<{ re: RegExp; resolve: (l: string) => void; reject: (e: Error) => void }> = [];
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const w of waiters.filter((x) => x.re.test(line))) w.resolve(line);
  });
  const exit = new Promise<number | null>((resolve) =>
    proc.on('exit', (code) => {
      if (code) process.stderr.write(stderr);
      // A helper that died will never print what a test waits for.
      for (const w of waiters) w.reject(new Error(`the helper process exited (${code}) before printing ${w.re}: ${stderr}`));
      resolve(code);
    }),
  );
  return {
    process: proc,
    lines,
    exit,
    goOn: () => proc.stdin!.end(),
    waitFor: (re) => {
      const seen = lines.find((l) => re.test(l));
      return seen ? Promise.resolve(seen) : new Promise((resolve, reject) => waiters.push({ re, resolve, reject }));
    },
  };
}

/** A pid that certainly belongs to no running process: a child that has exited. */
function deadPid(): number {
  const done = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(done.stdout.toString());
}

describe('session locks between processes', () => {
  let home: string;
  let project: string;
  let notes: string[];

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'opendev-locks-'));
    project = mkdtempSync(join(tmpdir(), 'opendev-locks-project-'));
    notes = [];
  });

  it('a writer waits for a lock held by another process, then fails with a clear SessionLockedError and writes nothing', async () => {
    const store = new SessionStore({ home, onProblem: (p) => notes.push(p), lock: { timeoutMs: 400 } });
    const record = await store.create(project);
    const said: Message[] = [{ role: 'user', content: 'first' }];
    await store.sync(record, said);
    const transcript = join(store.projectDir(project), `${record.meta.id}.jsonl`);
    const before = readFileSync(transcript, 'utf8');

    // The holder keeps the lock until it is told to let go, however slowly this side runs.
    const holder = child('hold', home, project, record.meta.id);
    await holder.waitFor(/^locked$/);
    const started = Date.now();
    const err = await store.sync(record, [...said, { role: 'assistant', content: 'second', toolCalls: [] }]).catch((e: unknown) => e);
    assert.ok(err instanceof SessionLockedError, String(err));
    assert.ok(Date.now() - started >= 400 && err.waitedMs >= 400, 'it waited for the timeout');
    assert.match(err.message, new RegExp(`locked by process ${holder.process.pid} on .*gave up after ${(err.waitedMs / 1000).toFixed(1).replace('.', '\\.')} s\\. Nothing was written\\.`));
    assert.equal(err.holder?.pid, holder.process.pid);
    assert.equal(readFileSync(transcript, 'utf8'), before);
    assert.equal(record.persisted, 1, 'the record still knows what is on disk');

    holder.goOn();
    await holder.waitFor(/^released$/);
    await store.sync(record, [...said, { role: 'assistant', content: 'second', toolCalls: [] }]);
    assert.deepEqual((await store.load(record.meta.id, project))?.messages.map((m) => m.content), ['first', 'second']);
    assert.deepEqual(notes, []);
    assert.equal(await holder.exit, 0);
  });

  it('two front ends writing the same session at once never interleave lines: the later one continues in a new session', async () => {
    const store = new SessionStore({ home, onProblem: (p) => notes.push(p) });
    const record = await store.create(project);
    await store.sync(record, [{ role: 'user', content: 'shared start' }]);
    // Both have loaded the session before either writes.
    const a = child('front', home, project, record.meta.id, 'A', '40');
    const b = child('front', home, project, record.meta.id, 'B', '40');
    await Promise.all([a.waitFor(/^ready$/), b.waitFor(/^ready$/)]);
    a.goOn();
    b.goOn();
    assert.deepEqual(await Promise.all([a.exit, b.exit]), [0, 0]);

    const sessions = await store.list(project);
    assert.equal(sessions.length, 2, 'the original and one continuation');
    const tags = new Set<string>();
    for (const meta of sessions) {
      const loaded = await store.load(meta.id, project);
      assert.ok(loaded);
      assert.deepEqual(loaded.problems, []);
      const [start, ...rest] = loaded.messages.map((m) => m.content);
      assert.equal(start, 'shared start');
      const tag = rest[0]!.split('-')[0]!;
      tags.add(tag);
      assert.deepEqual(rest, Array.from({ length: 40 }, (_, i) => `${tag}-${i + 1}`), `session ${meta.id} holds one front end's messages, in order`);
    }
    assert.deepEqual([...tags].sort(), ['A', 'B'], 'nothing was lost');
    assert.deepEqual(notes, []);
  });

  it('a lock left by a killed process is broken at once, with a note', async () => {
    const timeoutMs = 60_000;
    const store = new SessionStore({ home, onProblem: (p) => notes.push(p), lock: { timeoutMs } });
    const record = await store.create(project);
    const lock = join(store.projectDir(project), `${record.meta.id}.lock`);
    const pid = deadPid();
    writeFileSync(lock, JSON.stringify({ pid, host: hostname(), acquiredAt: new Date().toISOString(), token: 'dead' }));
    const started = Date.now();
    await store.sync(record, [{ role: 'user', content: 'after the crash' }]);
    assert.ok(Date.now() - started < timeoutMs / 2, 'no waiting for the timeout');
    assert.equal(notes.length, 1);
    assert.match(notes[0]!, new RegExp(`broke a stale lock .*${record.meta.id}\\.lock \\(held by process ${pid} on .*\\): process ${pid} is no longer running`));
    assert.equal(existsSync(lock), false);
    assert.equal((await store.load(record.meta.id, project))?.messages.length, 1);
  });

  it('a lock older than the stale limit is broken even when its process still runs; a garbage lock file is judged by its age', async () => {
    const store = new SessionStore({ home, onProblem: (p) => notes.push(p), lock: { timeoutMs: 5_000, staleMs: 1_000 } });
    const record = await store.create(project);
    const lock = join(store.projectDir(project), `${record.meta.id}.lock`);
    writeFileSync(lock, JSON.stringify({ pid: process.ppid, host: hostname(), acquiredAt: new Date(Date.now() - 60_000).toISOString(), token: 'old' }));
    await store.sync(record, [{ role: 'user', content: 'one' }]);
    assert.match(notes[0]!, /broke a stale lock .*: it is 60 s old/);

    writeFileSync(lock, 'garbage');
    const old = new Date(Date.now() - 5_000);
    utimesSync(lock, old, old);
    await store.sync(record, [{ role: 'user', content: 'one' }, { role: 'user', content: 'two' }]);
    assert.match(notes[1]!, /broke a stale lock .*held by an unknown process\): it is 5 s old/);
    assert.equal((await store.load(record.meta.id, project))?.messages.length, 2);
  });

  it('a fresh lock of a live process is waited for, not broken', async () => {
    const lockFile = join(project, 'x.lock');
    writeFileSync(lockFile, JSON.stringify({ pid: process.ppid, host: hostname(), acquiredAt: new Date().toISOString(), token: 'live' }));
    const err = await withFileLock(lockFile, async () => 'ran', { timeoutMs: 150, onNote: (n) => notes.push(n) }).catch((e: unknown) => e);
    assert.ok(err instanceof SessionLockedError);
    assert.deepEqual(notes, []);
    assert.ok(existsSync(lockFile), 'someone else\'s lock is left alone');
  });

  it('within one process, writers of the same file take turns instead of waiting for their own lock', async () => {
    const lockFile = join(project, 'y.lock');
    let inside = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        withFileLock(
          lockFile,
          async () => {
            most = Math.max(most, ++inside);
            await new Promise((resolve) => setTimeout(resolve, 5));
            order.push(i);
            inside--;
          },
          { timeoutMs: 200 },
        ),
      ),
    );
    assert.equal(most, 1);
    assert.deepEqual(order, [...order].sort((x, y) => x - y), 'in the order they asked');
    assert.equal(existsSync(lockFile), false);
    // A holder that throws releases the lock too.
    await assert.rejects(withFileLock(lockFile, async () => Promise.reject(new Error('boom'))), /boom/);
    assert.equal(await withFileLock(lockFile, async () => 'next', { timeoutMs: 200 }), 'next');
  });
});
