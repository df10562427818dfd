import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { DEFAULT_NETWORK_ALLOW } from '../../src/core/config/sandbox-settings';
import type { ChatEntryOf, ExtensionToWebview } from '../../src/shared/protocol';
import { allToolResults } from '../fixtures/fake-provider';
import { clearSettings, config, fakeProviderSuite, until, useSettings } from './support';

type SandboxMessage = Extract<ExtensionToWebview, { type: 'sandbox' }>;

/**
 * The OS sandbox around the commands the agent runs, in the VS Code chat: bubblewrap is installed
 * on these machines and in CI, so an unavailable sandbox fails here with its reason. The outside
 * target is a fresh folder of the test's own, outside the workspace and the session's temp folder.
 */
describe('the command sandbox in VS Code', function () {
  this.timeout(120_000);
  const suite = fakeProviderSuite({ approvalLevel: 'auto' }, { eachTest: true });
  const { fake } = suite;
  let outside: string;
  let seen: ExtensionToWebview[] = [];
  let listening: { dispose(): void } | undefined;

  before(async () => {
    outside = mkdtempSync(join(tmpdir(), 'opendev-sandbox-outside-'));
    // The suite runs with OPENDEV_SANDBOX=0 (the text rules' tests); the user's setting wins over it.
    await useSettings({ 'sandbox.enabled': true });
  });
  beforeEach(() => {
    seen = [];
    listening = suite.api.onViewMessage((m) => seen.push(m));
  });
  afterEach(() => listening?.dispose());
  after(async () => {
    rmSync(outside, { recursive: true, force: true });
    rmSync(join(suite.folder, 'inside.txt'), { force: true });
    await clearSettings(['sandbox.enabled', 'sandbox.network.allow']);
  });

  /** The last word the chat view had about the sandbox, once it is more than "starting". */
  async function sandboxSaid(): Promise<SandboxMessage> {
    const last = () => seen.filter((m): m is SandboxMessage => m.type === 'sandbox').at(-1);
    await until(() => last() !== undefined && last()!.state !== 'sandbox starting', 'the chat view to hear whether commands run sandboxed');
    return last()!;
  }

  it('a command writes in the workspace but not outside it; the model hears what was blocked; the status bar and footer say sandboxed', async () => {
    const target = join(outside, 'outside.txt');
    fake.enqueue(
      { toolCalls: [{ id: 'call_write', name: 'run_command', arguments: { command: `echo ok > inside.txt && echo x > ${target}` } }] },
      { text: 'The workspace file is written; the other one was blocked.' },
      // The command failed (exit 1): the agent is asked once more before it stops.
      { text: 'The sandbox does not let commands write outside the workspace, so only inside.txt was written.' },
    );
    const turn = suite.api.send('write the two files');
    // The sandbox is really there, else this fails at once with the reason (which the footer's title and the tooltip give).
    const said = await sandboxSaid();
    assert.equal(said.state, 'sandboxed', `commands must run sandboxed here (bubblewrap and socat are installed): ${said.detail ?? ''}`);
    const result = await turn;
    assert.equal(result?.status, 'completed', `the turn ended: ${suite.api.transcript().map((e) => ('text' in e ? e.text : e.kind === 'tool' ? e.output ?? e.summary : '')).join('\n')}`);

    assert.equal(readFileSync(join(suite.folder, 'inside.txt'), 'utf8'), 'ok\n', 'the write inside the workspace happened');
    assert.equal(existsSync(target), false, 'the write outside the workspace did not');
    // The request right after the command: its result as the model read it.
    const [toolResult] = allToolResults(fake.requests[1]!);
    assert.ok(toolResult, 'the model got the command result back');
    assert.match(toolResult.content, /The sandbox blocked/i);
    assert.ok(toolResult.content.includes(`writing ${target}`), `the result names the blocked write: ${toolResult.content}`);

    const status = suite.api.statusBar();
    assert.match(status.tooltip, /^Commands run in the sandbox/m);
    assert.doesNotMatch(status.text, /unsandboxed/);
    // The footer: the view was told, and a reloaded view gets it in its snapshot.
    assert.match(said.detail ?? '', /^Commands run in the sandbox/);
    suite.api.newChat();
    const snapshot = seen.filter((m) => m.type === 'snapshot').at(-1);
    assert.equal(snapshot?.type === 'snapshot' && snapshot.sandbox?.state, 'sandboxed');
  });

  it('"always" for a blocked host saves it to the user\'s opendev.sandbox.network.allow, and the session goes on with what it knew', async () => {
    await clearSettings(['sandbox.network.allow']);
    // A server on loopback the sandbox does not let commands reach until the user says so.
    const server: Server = createServer((_req, res) => res.end('hello from the local server'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const fetch = { name: 'run_command', arguments: { command: `curl -sS -m 20 http://localhost:${port}/` } };
    try {
      fake.enqueue({ toolCalls: [{ id: 'call_blocked', ...fetch }] }, { toolCalls: [{ id: 'call_again', ...fetch }] }, { text: 'The server says hello.' });
      const turn = suite.api.send('fetch the local page');
      const said = await sandboxSaid();
      assert.equal(said.state, 'sandboxed', `commands must run sandboxed here: ${said.detail ?? ''}`);
      const pendingHost = () => suite.api.transcript().find((e): e is ChatEntryOf<'approval'> => e.kind === 'approval' && e.state === 'pending' && e.request.kind === 'sandbox_host');
      await until(() => pendingHost() !== undefined, 'the card asking about the blocked host');
      const card = pendingHost()!;
      const host = card.request.host ?? '';
      assert.match(host, /^localhost(:\d+)?$/, 'the card names the host the command tried to reach');
      assert.deepEqual(suite.api.answer({ type: 'answerApproval', id: card.id, decision: { action: 'always' } }), { ok: true });
      assert.equal((await turn)?.status, 'completed');

      // Saved where the user's own settings are: the contributed defaults, then the host (a local
      // server under both its names, which the proxy checks).
      await until(() => Array.isArray(config().inspect('sandbox.network.allow')?.globalValue), 'the host to be saved');
      const saved = config().inspect<string[]>('sandbox.network.allow')!.globalValue!;
      assert.deepEqual(saved.slice(0, DEFAULT_NETWORK_ALLOW.length), [...DEFAULT_NETWORK_ALLOW]);
      const added = saved.slice(DEFAULT_NETWORK_ALLOW.length);
      assert.ok(added.includes(host), `${host} is saved: ${added.join(', ')}`);
      const [again] = allToolResults(fake.requests[2]!).slice(-1);
      assert.match(again?.content ?? '', /hello from the local server/, 'the command ran again and reached the host');

      // The settings change did not replace the session's agent: /sandbox (from the palette) still lists what it blocked.
      await vscode.commands.executeCommand('opendev.showSandbox');
      const shown = suite.api.transcript().filter((e): e is ChatEntryOf<'notice'> => e.kind === 'notice' && e.command === '/sandbox').at(-1);
      assert.ok(shown, 'Show Command Sandbox shows /sandbox in the chat');
      assert.match(shown.text, /^Sandbox: active/m);
      const sessionHosts = /^Allowed for this session: (.+)$/m.exec(shown.text)?.[1]?.split(', ') ?? [];
      assert.deepEqual([...sessionHosts].sort(), [...added].sort(), 'the hosts it allowed for the session are the ones saved');
      assert.match(shown.text, new RegExp(`^Blocked in this session \\(1\\):\\n  network localhost:${port}`, 'm'));
    } finally {
      server.close();
      await clearSettings(['sandbox.network.allow']);
    }
  });

  it('with opendev.sandbox.enabled off, the footer and the status bar tooltip say commands run unsandboxed, and why', async () => {
    await useSettings({ 'sandbox.enabled': false });
    fake.enqueue({ text: 'Hello.' });
    assert.equal((await suite.api.send('hi'))?.status, 'completed');
    const said = await sandboxSaid();
    assert.equal(said.state, 'unsandboxed');
    await until(() => /^Commands run unsandboxed/m.test(suite.api.statusBar().tooltip), 'the status bar tooltip to say unsandboxed');
    assert.doesNotMatch(suite.api.statusBar().text, /warning/, 'turned off by the user: no warning in the bar itself');
    assert.match(suite.api.statusBar().tooltip, /^Commands run unsandboxed, with your full access: opendev\.sandbox\.enabled is off\.$/m);
    assert.match(suite.api.statusBar().tooltip, /^Fix: turn opendev\.sandbox\.enabled on\.$/m);
    await clearSettings(['sandbox.enabled']);
  });
});
