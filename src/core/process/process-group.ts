import { childProcess } from '../lazy-builtins';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { childEnv } from './child-env';

/**
 * Process groups: every command the agent runs leads its own group (foreground: `detached: true`;
 * background: the PTY makes it a session leader), so a timeout, Stop or kill_process reaches the
 * grandchildren too (`bash -c 'sleep 100 & sleep 100'`). Groups still alive when the Node process
 * exits (the CLI ends, the extension host shuts down) are killed on the way out.
 */
const isWindows = process.platform === 'win32';

/** The shell that runs command lines: bash when present (the model writes bash), else sh. */
export function shellCommand(command: string): { file: string; args: string[] } {
  if (isWindows) return { file: process.env.ComSpec ?? 'cmd.exe', args: ['/d', '/s', '/c', command] };
  const bash = ['/bin/bash', '/usr/bin/bash', '/usr/local/bin/bash'].find((p) => existsSync(p));
  return { file: bash ?? '/bin/sh', args: ['-c', command] };
}

/** Sends a signal to the whole group led by `pid`. False when no process of the group is left. */
export function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  if (isWindows) {
    if (signal === 'SIGKILL' || signal === 'SIGTERM') {
      const r = childProcess().spawnSync('taskkill', ['/pid', String(pid), '/T', ...(signal === 'SIGKILL' ? ['/F'] : [])], { stdio: 'ignore', env: childEnv() });
      return r.status === 0;
    }
    return false;
  }
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    // Just after node-pty forks, the child has not called setsid() yet: there is no group -pid,
    // but the process is there (still in our group), and must not be missed.
    try {
      process.kill(pid, signal);
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * Whether any process of the group led by `pid` is still running. A zombie does not count: where
 * PID 1 does not reap orphans (some containers), killed grandchildren stay zombies forever.
 */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(isWindows ? pid : -pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return !isWindows && processAlive(pid);
  }
  if (process.platform !== 'linux') return true;
  return livingMembers(pid) > 0 || processAlive(pid);
}

/** The process itself (not its group) is running; a zombie does not count. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = process.platform === 'linux' ? procStat(pid) : undefined;
  return stat ? stat.state !== 'Z' && stat.state !== 'X' : process.platform !== 'linux';
}

/** Processes of group `pgid` that are not zombies, read from /proc (Linux). */
function livingMembers(pgid: number): number {
  let count = 0;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return 1;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (stat && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X') count++;
  }
  return count;
}

/** State and process group of a process from /proc/<pid>/stat, if it exists (Linux). */
export function procStat(pid: number): { state: string; pgrp: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid pgrp …"; comm may contain spaces and parentheses.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, pgrp: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

/** Waits until the group is gone or `ms` have passed; true when it is gone. Polls every 50 ms. */
export async function waitGroupGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (groupAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/** SIGTERM to the group, then SIGKILL after `graceMs` if anything is left. Resolves when the group is gone (or after the SIGKILL). */
export async function terminateGroup(pid: number, graceMs: number): Promise<void> {
  if (!signalGroup(pid, 'SIGTERM')) return;
  if (await waitGroupGone(pid, graceMs)) return;
  signalGroup(pid, 'SIGKILL');
  await waitGroupGone(pid, 1000);
}

// ---- groups to kill when this Node process exits -------------------------------------------------

const liveGroups = new Set<number>();
let hooksInstalled = false;

/** Remembers a group so it is killed if this process exits first. */
export function trackGroup(pid: number): void {
  liveGroups.add(pid);
  installExitHooks();
}

export function untrackGroup(pid: number): void {
  liveGroups.delete(pid);
}

/** SIGKILL to every tracked group, synchronously (safe inside an 'exit' handler). */
export function killTrackedGroups(): void {
  for (const pid of liveGroups) signalGroup(pid, 'SIGKILL');
  liveGroups.clear();
}

function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.once('exit', killTrackedGroups);
  // A terminating signal skips 'exit'. Where nobody else handles the signal, clean up and then let
  // it take its default course; where someone does, their handler decides (and 'exit' follows).
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    if (process.listenerCount(signal) > 0) continue;
    const onSignal = () => {
      killTrackedGroups();
      process.removeListener(signal, onSignal);
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}
