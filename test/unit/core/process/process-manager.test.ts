import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TaskInfo } from '../../../../src/core/process/background-task';
import { ProcessManager } from '../../../../src/core/process/process-manager';
import { loadPty } from '../../../../src/core/process/pty-loader';
import { running, until } from './process-helpers';

describe('ProcessManager: background tasks', function () {
  this.timeout(60_000);
  /**
   * waitForTask resolves on the task's end; its limit is only the test's own, so a loaded machine
   * never reads a task that is still running (a 5 s limit did: 948 of 1000 lines).
   */
  const UNTIL_ENDED_MS = 30_000;
  let dir: string;
  let manager: ProcessManager;
  const start = (command: string, extra: Partial<Parameters<ProcessManager['startBackground']>[0]> = {}) =>
    manager.startBackground({ command, cwd: dir, env: { PYTHONUNBUFFERED: '1' }, ...extra });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'opendev-tasks-'));
    manager = new ProcessManager({ tasksDir: join(dir, 'tasks'), limits: { killGraceMs: 1000, stopGraceMs: 500 } });
  });
  afterEach(async () => {
    await manager.shutdown();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads node-pty here (built from source) and runs tasks in a pseudo-terminal', () => {
    const loaded = loadPty();
    assert.equal(loaded.ok, true, loaded.ok ? '' : loaded.error);
    assert.deepEqual(manager.backgroundMode(), { mode: 'pty' });
    const info = start('test -t 1 && echo tty || echo notty');
    assert.equal(info.mode, 'pty');
    return manager.waitForTask(info.id, UNTIL_ENDED_MS).then(() => assert.deepEqual(manager.lastLines(info.id).lines, ['tty']));
  });

  it('gives 7-hex ids, writes the output file, and ends COMPLETED with the exit code', async () => {
    const info = start('echo one; echo two');
    assert.match(info.id, /^[0-9a-f]{7}$/);
    assert.equal(info.state, 'RUNNING');
    const done = await manager.waitForTask(info.id, UNTIL_ENDED_MS);
    assert.equal(done.state, 'COMPLETED');
    assert.equal(done.exitCode, 0);
    assert.match(readFileSync(done.outputFile, 'utf8'), /one\r?\ntwo/);
    assert.equal(done.outputFile, join(dir, 'tasks', `${info.id}.log`));
  });

  it('keeps task output private: the tasks folder 0700, each output file 0600', async () => {
    const umask = process.umask(0o022);
    try {
      const info = start('echo secret output');
      const done = await manager.waitForTask(info.id, UNTIL_ENDED_MS);
      // The file stream closes after the task ends: wait for its content.
      await until(() => existsSync(done.outputFile) && readFileSync(done.outputFile, 'utf8').includes('secret output'), 'the output file');
      assert.equal((statSync(join(dir, 'tasks')).mode & 0o777).toString(8), '700');
      assert.equal((statSync(done.outputFile).mode & 0o777).toString(8), '600');
    } finally {
      process.umask(umask);
    }
  });

  it('FAILED on a non-zero exit; listeners hear every change', async () => {
    const seen: Array<[string, string]> = [];
    manager.onTaskChange((t: TaskInfo) => seen.push([t.id, t.state]));
    const info = start('echo bad; exit 3');
    const done = await manager.waitForTask(info.id, UNTIL_ENDED_MS);
    assert.equal(done.state, 'FAILED');
    assert.equal(done.exitCode, 3);
    assert.deepEqual(seen, [[info.id, 'RUNNING'], [info.id, 'FAILED']]);
  });

  it('kill(): SIGTERM to the whole group, KILLED, grandchildren gone', async () => {
    const info = start('sleep 100 & echo child=$!; sleep 100');
    await until(() => manager.lastLines(info.id).lines.some((l) => l.startsWith('child=')));
    const child = Number(manager.lastLines(info.id).lines.find((l) => l.startsWith('child='))!.slice(6));
    assert.ok(running(child));
    const killed = await manager.kill(info.id);
    assert.equal(killed.state, 'KILLED');
    await until(() => !running(child));
    assert.equal(running(info.pid!), false);
  });

  it('SIGKILL after the grace period when SIGTERM is ignored', async () => {
    const info = start(`trap '' TERM; echo ready; while true; do sleep 0.1; done`);
    await until(() => manager.lastLines(info.id).lines.includes('ready'));
    const t0 = Date.now();
    const killed = await manager.kill(info.id, 500);
    assert.equal(killed.state, 'KILLED');
    assert.ok(Date.now() - t0 >= 450, 'waited for the grace period');
    assert.equal(running(info.pid!), false);
  });

  it('falls back to pipes when node-pty is off', async () => {
    const piped = new ProcessManager({ tasksDir: join(dir, 'piped'), usePty: false });
    try {
      assert.equal(piped.backgroundMode().mode, 'pipe');
      const info = piped.startBackground({ command: 'test -t 1 && echo tty || echo notty', cwd: dir, env: {} });
      assert.equal(info.mode, 'pipe');
      const done = await piped.waitForTask(info.id, UNTIL_ENDED_MS);
      assert.equal(done.state, 'COMPLETED');
      assert.deepEqual(piped.lastLines(info.id).lines, ['notty']);
    } finally {
      await piped.shutdown();
    }
  });

  it('keeps only the last lines in memory', async () => {
    const info = start('seq 1 1000');
    await manager.waitForTask(info.id, UNTIL_ENDED_MS);
    const { lines, total } = manager.lastLines(info.id, 100);
    assert.equal(total, 1000);
    assert.equal(lines.length, 100);
    assert.equal(lines[0], '901');
    assert.equal(lines[99], '1000');
  });

  it('unknown ids are a clear error', () => {
    assert.throws(() => manager.lastLines('abcdef0'), /No background task with id "abcdef0".*list_processes/);
  });

  it('dispose() kills every task and their children, and refuses new work', async () => {
    const a = start('sleep 100');
    const b = start('sleep 100 & sleep 100');
    await until(() => running(a.pid!) && running(b.pid!));
    manager.dispose();
    await until(() => !running(a.pid!) && !running(b.pid!));
    await until(() => manager.list().every((t) => t.state === 'KILLED'));
    assert.throws(() => start('echo late'), /has ended/);
  });

  it('the default tasks folder is under OPENDEV_HOME/scratch and goes away with the session', async () => {
    const home = join(dir, 'home');
    const own = new ProcessManager({ home });
    const info = own.startBackground({ command: 'echo hi', cwd: dir, env: {} });
    assert.equal(info.outputFile, join(home, 'scratch', own.id, 'tasks', `${info.id}.log`));
    await own.waitForTask(info.id, UNTIL_ENDED_MS);
    await own.shutdown();
    await until(() => !existsSync(join(home, 'scratch', own.id)));
  });

  it('limits the number of running tasks', async () => {
    const small = new ProcessManager({ tasksDir: join(dir, 'small'), limits: { maxRunningTasks: 1 } });
    try {
      small.startBackground({ command: 'sleep 30', cwd: dir, env: {} });
      assert.throws(() => small.startBackground({ command: 'sleep 30', cwd: dir, env: {} }), /already running.*kill_process/);
    } finally {
      await small.shutdown();
    }
  });
});
