/*
 * The two small programs behind the shell parser, as source text (they run as `node -e` and as an
 * eval'd worker, so the bundle needs no extra entry points).
 *
 * Why a separate process: tree-sitter's error recovery is super-linear on some inputs (1.6 KB of
 * "=`>" repeated takes 200 ms, 32 KB of ")" 7 s) and a native parse cannot be interrupted. The
 * parse runs in a child process that the worker kills when it overruns its time; the worker lets
 * the caller wait synchronously (judging a command is synchronous) while staying responsive itself.
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

/** The parser process: reads `{"id","text"}` lines, answers `{"id","kinds","nodes"}` (see FlatTree) or `{"id","error"}`. */
export const PARSER_CHILD_SOURCE = String.raw`
'use strict';
const napi = require(process.argv[1]);
napi.registerDynamicLanguage({ bash: JSON.parse(process.argv[2]) });
function dump(text) {
  const kinds = [];
  const index = new Map();
  const nodes = [];
  const stack = [napi.parse('bash', text).root()];
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
    out = Object.assign({ id }, dump(request.text));
  } catch (err) {
    out = { id, error: String((err && err.message) || err) };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}
${SPLIT_LINES}
process.stdin.setEncoding('utf8');
process.stdin.on('data', splitLines(handle));
process.stdin.on('end', () => process.exit(0));
process.stdout.write('{"ready":true}\n');
`;

/**
 * The worker: owns the parser process, forwards one request at a time, kills the process when a
 * parse overruns its budget (then starts a new one for the next request), and answers on the port
 * before waking the waiting caller through the shared flag.
 */
export const PARSER_WORKER_SOURCE = String.raw`
'use strict';
const { workerData, parentPort } = require('node:worker_threads');
const { spawn } = require('node:child_process');
const { port, state, execPath, args, env, startMs } = workerData;
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
    reply(req.seq, { timeout: true });
  }, req.budgetMs);
  child.stdin.write(JSON.stringify({ id: req.seq, text: req.text }) + '\n');
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
  reply(req.seq, { line });
}
parentPort.on('message', (req) => {
  if (!child) start();
  if (ready) send(req);
  else queued = req;
});
`;
