// The child process of undo-crash.test.ts: a session resumed under its id (as `opendev --continue`
// does), whose steps run through the real tools, the real ToolDispatcher and the real UndoManager.
// It reports each moment of its last step on stdout and waits for `go` on stdin there, frozen (a
// synchronous read: no callback, timer or pending write of it runs meanwhile), so the parent can
// SIGKILL it at exactly that instant, or just after it. Protocol, one line each way:
//   loaded → start <{"session", "plan"}> (its turn) · ready <n> → go (the parent has read the files) ·
//   moment <name> → go (last step only) · notice <text> (the UndoManager's) · fatal <message> when a call fails.
import { promises as fsp, readSync } from 'node:fs';
import { ToolDispatcher } from '../../../../src/core/agent/tool-dispatcher';
import type { ToolLifecycle } from '../../../../src/core/tools/tool-lifecycle';
import { createBuiltinRegistry } from '../../../../src/core/tools/builtin-tools';
import { FileTimeTracker } from '../../../../src/core/tools/file-time-tracker';
import { UndoManager } from '../../../../src/core/undo/undo-manager';
import { toolContext } from '../../../helpers/tool-context';
import { stepCalls, type CrashPlan } from './undo-crash-steps';

// Synchronous on Linux for pipes: the line is out before the child freezes.
const say = (line: string) => process.stdout.write(`${line}\n`);

let unread = '';
/** The parent's next line, read synchronously: the whole process waits for it. */
function hear(): string {
  const chunk = Buffer.alloc(4096);
  for (;;) {
    const end = unread.indexOf('\n');
    if (end >= 0) {
      const line = unread.slice(0, end);
      unread = unread.slice(end + 1);
      return line;
    }
    const n = readSync(0, chunk, 0, chunk.length, null);
    if (n === 0) process.exit(0); // the parent is gone
    unread += chunk.toString('utf8', 0, n);
  }
}

function go(): void {
  const line = hear();
  if (line !== 'go') throw new Error(`expected go, heard ${line}`);
}

/** Pausing at moments: during the last step only. */
let watching = false;
function moment(name: string): void {
  if (!watching) return;
  say(`moment ${name}`);
  go();
}

/** writeFileAtomic's temp files; its moments are seen through the fs calls it makes (nothing else changes). */
const TEMP_FILE = /\.opendev-\d+-[0-9a-f]{8}\.tmp$/;
function watchAtomicWrites(): void {
  const open = fsp.open;
  fsp.open = (async (...args: Parameters<typeof open>) => {
    const handle = await open(...args);
    if (TEMP_FILE.test(String(args[0])) && args[1] === 'wx') {
      const sync = handle.sync.bind(handle);
      handle.sync = async () => {
        await sync();
        moment('temp-synced');
      };
      moment('temp-open');
    }
    return handle;
  }) as typeof open;
  for (const name of ['rename', 'link'] as const) {
    const original = fsp[name];
    fsp[name] = async (from, to) => {
      await original(from, to);
      if (TEMP_FILE.test(String(from))) moment('renamed');
    };
  }
}

async function main(): Promise<void> {
  const [home, workspace] = process.argv.slice(2) as [string, string];
  watchAtomicWrites();
  say('loaded');
  const start = hear().replace(/^start /, '');
  const { session, plan } = JSON.parse(start) as { session: string; plan: CrashPlan };

  const registry = createBuiltinRegistry();
  const changesFiles = (name: string) => {
    const tool = registry.get(name);
    return !!tool && !tool.readOnly && tool.category !== 'todo';
  };
  const undo = await UndoManager.open({
    workspaceRoot: workspace,
    home,
    sessionId: session,
    changesFiles,
    onNotice: (message) => say(`notice ${message.replace(/\n/g, ' ')}`),
    // Durability is under test, not the 2 s budget: on a loaded machine a step must not go ahead without its snapshot.
    settings: { budgetMs: 120_000 },
  });
  const lifecycle: ToolLifecycle = {
    before: async (call, ctx) => {
      if (changesFiles(call.name)) moment('undo-before');
      const gate = await undo.lifecycle.before!(call, ctx);
      if (changesFiles(call.name)) moment('armed');
      return gate;
    },
    after: async (call, result, ctx) => {
      await undo.lifecycle.after!(call, result, ctx);
      if (changesFiles(call.name)) moment('call-done');
    },
  };
  const dispatcher = new ToolDispatcher(registry, lifecycle);
  const files = new FileTimeTracker();

  for (const [index, kind] of plan.steps.entries()) {
    say(`ready ${index + 1}`);
    go();
    watching = index === plan.steps.length - 1;
    const calls = stepCalls(kind, plan.trial, index);
    const results = await dispatcher.dispatch(calls, toolContext({ workspaceRoot: workspace, files }));
    for (const r of results) if (!r.ok) say(`fatal ${kind}: ${r.output.split('\n')[0]}`);
    moment('ran');
    // The executor's step boundary; the after-snapshot runs in the background, as in a turn.
    undo.afterStep(calls, results);
    if (watching) {
      await undo.idle();
      moment('stepped');
    }
  }
  // Killed here at the latest.
  hear();
}

main().catch((err: unknown) => say(`fatal ${(err as Error).stack ?? String(err)}`));
