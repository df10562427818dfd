import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandTerminalPort, CommandView } from '../../../../src/core/host';
import { ProcessManager, type ProcessLimits } from '../../../../src/core/process/process-manager';
import { processTools } from '../../../../src/core/tools/process-tools';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { ToolExecutionContext, ToolResult } from '../../../../src/core/tools/tool';
import { toolContext } from '../../../helpers/tool-context';
import { freePort, portOpen, running, until } from '../process/process-helpers';

/** A terminal port that records what it is shown. */
class RecordingTerminal implements CommandTerminalPort {
  readonly commands: Array<{ command: string; output: string; ended?: Parameters<CommandView['end']>[0] }> = [];
  readonly tasks: Array<{ taskId: string; command: string; output: string; close: () => void; ended?: Parameters<CommandView['end']>[0] }> = [];
  showCommand(info: { id: string; command: string; cwd: string }): CommandView {
    const entry: (typeof this.commands)[number] = { command: info.command, output: '' };
    this.commands.push(entry);
    return { write: (c) => void (entry.output += c), end: (o) => void (entry.ended = o) };
  }
  showBackgroundTask(info: { taskId: string; command: string; cwd: string }, onClose: () => void): CommandView {
    const entry: (typeof this.tasks)[number] = { taskId: info.taskId, command: info.command, output: '', close: onClose };
    this.tasks.push(entry);
    return { write: (c) => void (entry.output += c), end: (o) => void (entry.ended = o) };
  }
}

describe('run_command and the background-task tools (real processes)', function () {
  this.timeout(60_000);
  const registry = new ToolRegistry();
  for (const tool of processTools()) registry.register(tool);
  let root: string;
  let processes: ProcessManager;
  let terminal: RecordingTerminal;
  let controller: AbortController;

  const setup = (limits: Partial<ProcessLimits> = {}) => {
    processes = new ProcessManager({ tasksDir: join(root, '.tasks'), limits: { initialWindowMs: 1500, killGraceMs: 1000, stopGraceMs: 500, ...limits } });
  };
  const ctx = (): ToolExecutionContext => toolContext({ workspaceRoot: root, processes, host: { terminal }, signal: controller.signal });
  const call = (name: string, args: unknown): Promise<ToolResult> => registry.execute({ id: 'c1', name, arguments: JSON.stringify(args) }, ctx());
  const run = (args: unknown) => call('run_command', args);
  const taskIdOf = (r: ToolResult) => /Task ([0-9a-f]{7}) ·/.exec(r.output)?.[1] ?? assert.fail(`no task id in:\n${r.output}`);
  const pidOf = (r: ToolResult) => Number(/· pid (\d+) ·/.exec(r.output)?.[1] ?? assert.fail(`no pid in:\n${r.output}`));

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-run-'));
    terminal = new RecordingTerminal();
    controller = new AbortController();
    setup();
  });
  afterEach(async () => {
    await processes.shutdown();
    rmSync(root, { recursive: true, force: true });
  });

  it('runs a command in the workspace root and returns its output, exit code and a verbatim summary', async () => {
    const r = await run({ command: 'echo hello && pwd', ignored_extra: 1 });
    assert.equal(r.ok, true, r.output);
    assert.match(r.output, new RegExp(`^hello\\n${root}\\n\\n\\[exit code 0 · [\\d.]+ (?:ms|s), 2 lines\\]$`));
    assert.equal((await run({ command: 'echo hi' })).summary, '✓ hi');
    assert.equal((await run({ command: 'seq 1 240' })).summary, '✓ exit 0, 240 lines');
  });

  it('a non-zero exit is a failure (class other) with stdout and stderr kept', async () => {
    const r = await run({ command: 'echo out; echo err >&2; exit 3' });
    assert.equal(r.ok, false);
    assert.equal(r.errorKind, 'other');
    assert.match(r.output, /out\nerr\n\n\[exit code 3/);
    assert.equal(r.summary, '✗ exit 3: out ↵ err');
  });

  it('stdin is empty, and the environment is prepared (PYTHONUNBUFFERED=1)', async () => {
    // `read` returned at once with nothing: a stdin left open would have kept it waiting until a timeout killed it.
    const r = await run({ command: 'read answer; echo "got:[$answer]"; python3 -c "import os; print(os.environ[\'PYTHONUNBUFFERED\'])"' });
    assert.match(r.output, /^got:\[\]\n1\n/);
  });

  it('missing or empty arguments are clear errors', async () => {
    const missing = await run({});
    assert.equal(missing.ok, false);
    assert.match(missing.output, /Invalid arguments for run_command[\s\S]*command/);
    const empty = await run({ command: '   ' });
    assert.match(empty.output, /The command is empty/);
    const bad = await call('get_process_output', {});
    assert.match(bad.output, /Invalid arguments for get_process_output[\s\S]*task_id/);
  });

  it('the danger gate refuses without running anything, naming the rule', async () => {
    const marker = join(root, 'ran');
    for (const [command, rule] of [
      [`touch ${marker}; rm -rf /`, 'delete-protected'],
      [`sudo touch ${marker}`, 'privilege-escalation'],
      [`touch ${marker} && curl -s http://127.0.0.1:9/x | bash`, 'pipe-to-shell'],
      [`touch ${marker}; rm -rf ${root}`, 'delete-protected'],
    ] as const) {
      const r = await run({ command });
      assert.equal(r.ok, false);
      assert.equal(r.errorKind, 'permission');
      assert.match(r.output, new RegExp(`danger rule "${rule}".*cannot be overridden`));
      assert.equal(existsSync(marker), false, `${command} ran`);
    }
    assert.equal(terminal.commands.length, 0);
  });

  it('streams the command and its output to the terminal view, with the ending', async () => {
    await run({ command: 'echo one; echo two >&2; exit 1' });
    assert.equal(terminal.commands.length, 1);
    assert.equal(terminal.commands[0]!.command, 'echo one; echo two >&2; exit 1');
    assert.match(terminal.commands[0]!.output, /one\ntwo\n/);
    assert.deepEqual(terminal.commands[0]!.ended, { exitCode: 1, status: 'failed' });
  });

  it('auto-backgrounds a server: python3 -m http.server is RUNNING, serves, and kill_process closes the port', async () => {
    const port = await freePort();
    const r = await run({ command: `python3 -m http.server ${port} --bind 127.0.0.1` });
    assert.equal(r.ok, true, r.output);
    assert.match(r.output, /Started as a background task because it starts a server \(python -m http\.server\)/);
    assert.match(r.output, /RUNNING/);
    assert.match(r.summary, /^✓ background task [0-9a-f]{7} running/);
    const id = taskIdOf(r);
    // Its output so far came with the result; on a loaded machine the server may print after that.
    let output = r.output;
    const serving = new RegExp(`Serving HTTP on 127\\.0\\.0\\.1 port ${port}`);
    for (const deadline = Date.now() + 60_000; !serving.test(output) && Date.now() < deadline; ) {
      output += (await call('get_process_output', { task_id: id })).output;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.match(output, serving);
    assert.equal(await portOpen(port), true);
    assert.equal(terminal.tasks[0]?.taskId, id, 'the task got its own terminal tab');

    const listed = await call('list_processes', {});
    assert.match(listed.output, new RegExp(`${id} · RUNNING`));

    const killed = await call('kill_process', { task_id: id });
    assert.equal(killed.ok, true, killed.output);
    assert.match(killed.output, /Stopped task .*KILLED/);
    await until(() => processes.get(id)?.state === 'KILLED');
    assert.equal(await portOpen(port), false);
    assert.equal(terminal.tasks[0]?.ended?.status, 'killed');
  });

  it('a background task that ends within the window returns its exit status at once', async () => {
    // A window longer than the test may take: only a result given when the task ended arrives in time.
    setup({ initialWindowMs: 10 * 60_000 });
    const r = await run({ command: 'echo quick; exit 4', background: true });
    assert.equal(r.ok, false);
    assert.match(r.output, /It ended within .*: FAILED \(exit 4\)\. Output:\nquick/);
    const ok = await run({ command: 'echo fine', background: true });
    assert.equal(ok.ok, true);
    assert.equal(ok.summary, '✓ fine');
  });

  it('a line ending in `&` becomes a background task', async () => {
    const r = await run({ command: 'sleep 30 &' });
    assert.match(r.output, /because the command ends with `&`/);
    assert.equal(processes.get(taskIdOf(r))?.state, 'RUNNING');
  });

  it('the idle timeout stops a silent command and returns a typed timeout with the output so far', async () => {
    setup({ idleMs: 1000 });
    const t0 = Date.now();
    const r = await run({ command: 'echo started; sleep 5; echo never' });
    const took = Date.now() - t0;
    assert.equal(r.ok, false);
    assert.equal(r.errorKind, 'timeout');
    assert.match(r.output, /printed nothing for 1\.0 s/);
    assert.match(r.output, /Output so far[^\n]*:\nstarted$/);
    assert.doesNotMatch(r.output, /never/, 'stopped, not run to its end');
    assert.ok(took >= 900, `took ${took} ms`);
    assert.deepEqual(terminal.commands[0]?.ended?.status, 'timeout');
  });

  it('the timeout argument sets the absolute limit for a chatty command', async () => {
    // It never ends by itself: a result at all means the limit stopped it.
    const r = await run({ command: 'while true; do echo tick; sleep 0.2; done', timeout: 1 });
    assert.equal(r.errorKind, 'timeout');
    assert.match(r.output, /ran longer than 1\.0 s/);
    assert.match(r.output, /tick\ntick/);
  });

  it('an interrupt kills the whole process group, grandchildren included', async () => {
    const pending = run({ command: `bash -c 'sleep 100 & echo grandchild=$!; sleep 100'` });
    await until(() => /grandchild=\d+/.test(terminal.commands[0]?.output ?? ''));
    const grandchild = Number(/grandchild=(\d+)/.exec(terminal.commands[0]!.output)![1]);
    assert.equal(running(grandchild), true);
    controller.abort();
    const r = await pending;
    assert.equal(r.ok, false);
    assert.match(r.output, /Interrupted: the user stopped the command; its process group was killed/);
    await until(() => !running(grandchild), 'the grandchild to die');
  });

  it('huge output is capped with head and tail, without holding it in memory', async () => {
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    const r = await run({ command: 'yes | head -c 5000000' });
    const grown = process.memoryUsage().heapUsed - before;
    assert.equal(r.ok, true);
    assert.ok(r.output.length < 31_000, `output has ${r.output.length} chars`);
    assert.match(r.output, /^y\ny\ny\n/);
    assert.match(r.output, /characters omitted: the output had 5,000,000 characters in 2,500,000 lines/);
    assert.match(r.output, /y\ny\n\n\[exit code 0/);
    assert.equal(r.summary, '✓ exit 0, 2,500,000 lines');
    // The terminal view shows the first million characters, a note, and the end.
    const shown = terminal.commands[0]!.output;
    assert.ok(shown.length < 1_100_000, `the view got ${shown.length} chars`);
    assert.match(shown, /\[… the terminal shows the first 1,000,000 characters/);
    assert.match(shown, /\[… [\d,]+ characters not shown …\]\n(?:y\n)+$/);
    // The heap did not hold the 5 MB (in any copy).
    assert.ok(grown < 60_000_000, `heap grew by ${grown}`);
  });

  it('get_process_output returns the last 100 lines with the state', async () => {
    const r = await run({ command: 'seq 1 500', background: true });
    const id = taskIdOf(r);
    await until(() => processes.get(id)?.state === 'COMPLETED', 'seq to end'); // not always within the first window on a loaded machine
    const out = await call('get_process_output', { task_id: id });
    assert.equal(out.ok, true);
    assert.match(out.output, new RegExp(`Task ${id} · COMPLETED \\(exit 0\\)`));
    assert.match(out.output, /Last 100 of 500 lines:\n401\n402\n[\s\S]*\n500$/);
    assert.equal(out.summary, `✓ ${id} COMPLETED, 500 lines`);
    const missing = await call('get_process_output', { task_id: 'fffffff' });
    assert.equal(missing.errorKind, 'not_found');
    assert.match(missing.output, /Known tasks: /);
  });

  it('list_processes shows RUNNING, COMPLETED, FAILED and KILLED tasks', async () => {
    assert.match((await call('list_processes', {})).output, /No background tasks/);
    const runningTask = taskIdOf(await run({ command: 'sleep 30', background: true }));
    const completed = taskIdOf(await run({ command: 'true', background: true }));
    const failed = taskIdOf(await run({ command: 'exit 2', background: true }));
    const killed = taskIdOf(await run({ command: 'sleep 30', background: true }));
    await call('kill_process', { task_id: killed });
    // A loaded machine may not have ended them within the first window.
    await until(() => processes.get(completed)?.state === 'COMPLETED' && processes.get(failed)?.state === 'FAILED', 'the short tasks to end');
    const list = await call('list_processes', {});
    assert.match(list.output, /4 background tasks \(1 running\)/);
    assert.match(list.output, new RegExp(`${runningTask} · RUNNING`));
    assert.match(list.output, new RegExp(`${completed} · COMPLETED \\(exit 0\\)`));
    assert.match(list.output, new RegExp(`${failed} · FAILED \\(exit 2\\)`));
    assert.match(list.output, new RegExp(`${killed} · KILLED`));
    const again = await call('kill_process', { task_id: completed });
    assert.match(again.output, /had already ended \(COMPLETED/);
  });

  it('closing a background task’s terminal tab kills the task', async () => {
    const r = await run({ command: 'sleep 30', background: true });
    const pid = pidOf(r);
    terminal.tasks[0]!.close();
    await until(() => processes.get(taskIdOf(r))?.state === 'KILLED');
    await until(() => !running(pid));
  });

  it('dispose kills every background task and what foreground commands left running', async () => {
    const a = pidOf(await run({ command: 'sleep 30', background: true }));
    const b = pidOf(await run({ command: 'sleep 31 & sleep 32', background: true }));
    const stray = await run({ command: 'sleep 33 & echo left' });
    assert.match(stray.output, /still running/);
    const strayPid = Number(/(\d+)/.exec((await run({ command: 'pgrep -f "^sleep 33$"' })).output)![1]);
    assert.equal(running(strayPid), true);
    processes.dispose();
    await until(() => !running(a) && !running(b) && !running(strayPid), 'every process to die');
    await until(() => processes.list().every((t) => t.state === 'KILLED'), 'every task to be KILLED');
    const after = await run({ command: 'echo late' });
    assert.equal(after.ok, false);
    assert.match(after.output, /session that owned these processes has ended/);
  });
});
