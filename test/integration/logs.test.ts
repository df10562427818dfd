import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import * as vscode from 'vscode';
import { fakeProviderSuite, until } from './support';

const KEY = 'sk-integration-logs-5e1f0a9b7c3d';

/**
 * The "OpenDev" log channel in a real VS Code: the file VS Code writes for our LogOutputChannel (the
 * lines Show Logs shows) after a chat turn against the fake provider over the real SDK.
 */
describe('OpenDev logs in VS Code', () => {
  const suite = fakeProviderSuite();
  const { fake } = suite;
  const logText = () => (existsSync(suite.api.logFile()) ? readFileSync(suite.api.logFile(), 'utf8') : '');

  it('after a chat turn the log has the request line (model, tokens, latency) and the retry, and never the key', async () => {
    await vscode.commands.executeCommand('opendev.setApiKey', 'openai', KEY);
    fake.enqueue({ failure: { kind: 'status', status: 503 } }, { text: 'Logged.', usage: { promptTokens: 150, outputTokens: 2 } });
    const result = await suite.api.send('hello logs');
    assert.equal(result?.status, 'completed');
    assert.equal(fake.requests.at(-1)!.headers.authorization, `Bearer ${KEY}`, 'the key went to the provider');
    // VS Code writes the channel's file on its own schedule: wait for the line (one generous limit).
    await until(() => /\[info\] provider request .*status=ok/.test(logText()), 'the request line in the OpenDev log');
    const text = logText();
    assert.match(text, /\[info\] provider request provider=openai model=gpt-4\.1 purpose=action .*inputTokens=150 .*outputTokens=2 latencyMs=\d+ .*attempts=2 status=ok/);
    assert.match(text, /\[warning\] provider retry provider=openai model=gpt-4\.1 .*attempt=2 .*reason="a server error \(503\)"/);
    assert.match(text, /\[info\] session: agent built /);
    assert.ok(!text.includes(KEY), 'no key in the log');
    assert.ok(!text.includes('hello logs'), 'message content only at trace (the default level is info)');
    await vscode.commands.executeCommand('opendev.setApiKey', 'openai', 'sk-integration');
  });

  it('"OpenDev: Show Logs" is contributed and runs; the extension has one log channel', async () => {
    assert.ok((await vscode.commands.getCommands(true)).includes('opendev.showLogs'));
    await vscode.commands.executeCommand('opendev.showLogs');
    const ours = readdirSync(dirname(suite.api.logFile())).filter((f) => f.endsWith('.log'));
    assert.deepEqual(ours, [basename(suite.api.logFile())]);
    assert.equal(basename(suite.api.logFile()), 'OpenDev.log');
  });
});
