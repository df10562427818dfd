// The VS Code server the tests and `npm start` run, plus the one route the workbench of code-server
// needs and the bare server lacks: POST <page path>/mint-key.
//
// Why: the workbench shipped in code-server (lib/vscode/out/vs/code/browser/workbench/workbench.js)
// keeps secrets (SecretStorage, e.g. OpenDev's API key) in the browser's localStorage, sealed with
// AES-GCM under a key that is half the browser's and half the server's; it fetches the server half
// with `POST <location.pathname>/mint-key`. code-server's own Express wrapper serves that route
// (out/node/routes/vscode.js); the bare VS Code server (server-main.js, which we run to keep the
// setup small) answers every POST with "405 Method Not Allowed". The workbench then cannot seal
// or unseal, so a stored key is gone as soon as the tab reloads. This file loads the VS Code
// server as a module the way code-server does, answers mint-key the way code-server does (a
// 32-byte half kept in <user-data-dir>/serve-web-key-half, readable by its owner only) and hands
// every other request and WebSocket upgrade to VS Code unchanged.
//
// Arguments: those of server-main.js (--host, --port, --user-data-dir, ...), passed through.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const [serverMain, ...rest] = process.argv.slice(2);
// server-main.js parses process.argv itself (its createServer reads it when given no args).
process.argv = [process.argv[0], serverMain, ...rest];
const { values: args } = parseArgs({
  args: rest,
  strict: false, // the other server-main.js options pass through unread
  options: { host: { type: 'string' }, port: { type: 'string' }, 'user-data-dir': { type: 'string' } },
});

/** The server half of the secret storage key: the same for every page load while the data dir lives. */
function serverKeyHalf() {
  const file = join(args['user-data-dir'], 'serve-web-key-half');
  try {
    const key = readFileSync(file);
    if (key.length === 32) return key;
  } catch { /* first start: minted below */ }
  const key = randomBytes(32); // VS Code wants 256 bits
  writeFileSync(file, key, { mode: 0o600 });
  return key;
}
const keyHalf = serverKeyHalf();

// Set, server-main.js only exports its loader instead of starting a server of its own.
process.env.CODE_SERVER_PARENT_PID = String(process.pid);
const { loadCodeWithNls } = await import(pathToFileURL(serverMain).href);
const vscode = await (await loadCodeWithNls()).createServer(null);

const http = createServer((req, res) => {
  if (req.method === 'POST' && new URL(req.url ?? '/', 'http://x').pathname.endsWith('/mint-key')) {
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Cache-Control': 'no-store' });
    res.end(keyHalf);
    return;
  }
  vscode.handleRequest(req, res);
});
http.on('upgrade', (req, socket) => vscode.handleUpgrade(req, socket));
http.on('error', (err) => vscode.handleServerError(err));
http.listen(Number(args.port), args.host, () => {
  const address = http.address();
  // The line startVSCodeServer waits for, as server-main.js prints it.
  console.log(`Extension host agent listening on ${typeof address === 'string' ? address : address?.port}`);
});
process.on('exit', () => http.close());
