/*
 * The programs behind the shell parser, as source text (they run as `node -e` and as eval'd
 * workers, so the bundle needs no extra entry points).
 *
 * Why a separate process: tree-sitter's error recovery is super-linear on some inputs (1.6 KB of
 * "=`>" repeated takes 200 ms, 32 KB of ")" 7 s) and a native parse cannot be interrupted. The
 * parse runs in a child process that is killed when it overruns its budget; the worker lets the
 * caller wait synchronously (judging a command is synchronous) while staying responsive itself.
 *
 * The budget is CPU time, not time on the clock: how much work a text costs the parser is a
 * property of the text, whereas the clock also counts whatever else the machine is doing. Judged
 * by the clock, an ordinary command on a busy machine overran and was refused as unreadable.
 */

/** Both programs read newline-delimited JSON: a chunk may hold several lines, or part of one. */
const SPLIT_LINES = String.raw`
function splitLines(onLine) {
  let pending = [];
  return (chunk) => {
    let from = 0;
    let nl;
    while ((nl = chunk.indexOf('\n', from)) !== -1) {
      pending.push(chunk.slice(from, nl));
      const line = pending.join('');
      pending = [];
      from = nl + 1;
      onLine(line);
    }
    if (from < chunk.length) pending.push(chunk.slice(from));
  };
}
`;

/**
 * The parser process's watchdog, a thread beside the parse: while a parse runs it reads the
 * process's CPU time every few milliseconds, and when the parse has used more than its budget it
 * answers `{"timeout":true,"id"}` in its place (the worker then kills the process). The parse and
 * the watchdog settle who answers with one compare-and-swap on the shared id, so one line goes out.
 */
const WATCHDOG_SOURCE = String.raw`
'use strict';
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const active = new Int32Array(workerData, 0, 2);
const started = new Float64Array(workerData, 8, 1);
const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
for (;;) {
  Atomics.wait(active, 0, 0);
  const id = Atomics.load(active, 0);
  if (id === 0) continue;
  while (Atomics.load(active, 0) === id) {
    if (cpuMs() - started[0] > active[1] && Atomics.compareExchange(active, 0, id, -id) === id) {
      const line = JSON.stringify({ timeout: true, id }) + '\n';
      for (;;) {
        try {
          writeSync(1, line);
          break;
        } catch (err) {
          if (err.code !== 'EAGAIN') break;
        }
      }
      break;
    }
    Atomics.wait(active, 0, id, 5);
  }
  if (Atomics.load(active, 0) < 0) break;
}
`;

/**
 * The parser process: reads `{"id","text","budgetMs"}` lines, answers `{"id","cpuMs","kinds","nodes"}`
 * (see FlatTree; cpuMs: what the parse cost), `{"id","error"}`, or (its watchdog) `{"timeout":true,"id"}`.
 * The budget is tree-sitter's parse alone, the part that can crawl; sending the tree back is linear
 * in its nodes (for a 90 KB script several times the parse itself) and is not counted.
 */
export const PARSER_CHILD_SOURCE = String.raw`
'use strict';
const { Worker } = require('node:worker_threads');
const napi = require(process.argv[1]);
napi.registerDynamicLanguage({ bash: JSON.parse(process.argv[2]) });
// [0]: the id of the parse running (0: none; -id: its budget ran out), [1]: its budget in CPU ms; then the CPU ms it started at.
const shared = new SharedArrayBuffer(16);
const active = new Int32Array(shared, 0, 2);
const started = new Float64Array(shared, 8, 1);
const watchdog = new Worker(${JSON.stringify(WATCHDOG_SOURCE)}, { eval: true, workerData: shared });
watchdog.unref();
const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
function dump(root) {
  const kinds = [];
  const index = new Map();
  const nodes = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    const children = node.children();
    const range = node.range();
    const key = (node.isNamed() ? 'n' : 'a') + node.kind();
    let k = index.get(key);
    if (k === undefined) {
      k = kinds.length;
      kinds.push(key);
      index.set(key, k);
    }
    nodes.push(k, range.start.index, range.end.index, children.length);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return { kinds, nodes };
}
function handle(line) {
  let id = 0;
  let out;
  try {
    const request = JSON.parse(line);
    id = request.id;
    started[0] = cpuMs();
    active[1] = Math.max(1, Math.ceil(request.budgetMs));
    Atomics.store(active, 0, id);
    Atomics.notify(active, 0);
    let root;
    try {
      root = napi.parse('bash', request.text).root();
    } finally {
      // The watchdog answered first: this parse is over its budget, and the worker kills the process.
      if (Atomics.compareExchange(active, 0, id, 0) !== id) return;
    }
    const spent = cpuMs() - started[0];
    out = Object.assign({ id, cpuMs: spent }, dump(root));
  } catch (err) {
    out = { id, error: String((err && err.message) || err) };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}
${SPLIT_LINES}
process.stdin.setEncoding('utf8');
process.stdin.on('data', splitLines(handle));
process.stdin.on('end', () => process.exit(0));
// Ready once the watchdog runs: no parse goes unwatched.
watchdog.once('online', () => process.stdout.write('{"ready":true}\n'));
watchdog.once('error', (err) => {
  process.stderr.write(String(err) + '\n');
  process.exit(1);
});
`;

/**
 * The worker: owns the parser process, forwards one request at a time, kills the process when a
 * parse overruns its budget (then starts a new one for the next request), and answers on the port
 * before waking the waiting caller through the shared flag. A process that neither answers nor
 * overruns its budget within `stallMs` on the clock (stopped, or starved for that long) is killed too.
 */
export const PARSER_WORKER_SOURCE = String.raw`
'use strict';
const { workerData, parentPort } = require('node:worker_threads');
const { spawn } = require('node:child_process');
const { port, state, execPath, args, env, startMs, stallMs } = workerData;
${SPLIT_LINES}
const flag = new Int32Array(state);
let child = null;
let ready = false;
let current = null;
let queued = null;
let startTimer = null;
function reply(seq, message) {
  port.postMessage(Object.assign({ seq }, message));
  Atomics.store(flag, 0, seq);
  Atomics.notify(flag, 0);
}
function stop() {
  const proc = child;
  child = null;
  ready = false;
  clearTimeout(startTimer);
  if (proc) proc.kill('SIGKILL');
}
function fail(reason) {
  stop();
  for (const req of [current, queued]) {
    if (!req) continue;
    clearTimeout(req.timer);
    reply(req.seq, { error: reason });
  }
  current = null;
  queued = null;
}
function start() {
  const proc = spawn(execPath, args, { env, stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true });
  child = proc;
  ready = false;
  // The caller kills it when its own process exits (a parse cannot be interrupted from inside).
  Atomics.store(flag, 1, proc.pid || 0);
  proc.stdout.setEncoding('utf8');
  proc.stdout.on('data', splitLines((line) => { if (proc === child) onLine(line); }));
  proc.on('error', (err) => { if (proc === child) fail('the shell parser could not start: ' + err.message); });
  proc.on('exit', (code, signal) => { if (proc === child) fail('the shell parser stopped (' + (signal || code) + ')'); });
  proc.stdin.on('error', () => {});
  startTimer = setTimeout(() => { if (proc === child && !ready) fail('the shell parser did not start in time'); }, startMs);
}
function send(req) {
  current = req;
  req.timer = setTimeout(() => {
    if (current !== req) return;
    current = null;
    stop();
    reply(req.seq, { stalled: true });
  }, stallMs);
  child.stdin.write(JSON.stringify({ id: req.seq, text: req.text, budgetMs: req.budgetMs }) + '\n');
}
function onLine(line) {
  if (!ready) {
    ready = true;
    clearTimeout(startTimer);
    if (queued) {
      const req = queued;
      queued = null;
      send(req);
    }
    return;
  }
  const req = current;
  if (!req) return;
  current = null;
  clearTimeout(req.timer);
  if (line.startsWith('{"timeout":true')) {
    // Still parsing: only a new process can take the next request.
    stop();
    reply(req.seq, { timeout: true });
    return;
  }
  reply(req.seq, { line });
}
parentPort.on('message', (req) => {
  if (!child) start();
  if (ready) send(req);
  else queued = req;
});
`;
