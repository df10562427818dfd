import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { fakeProviderSuite, until } from './support';

/**
 * The "OpenDev" log channel follows the log level the user sets (Developer: Set Log Level…): at
 * Debug an edit's undo checkpoint is logged, back at Info it is not, and at Trace the request's
 * content is (never the key). The level is changed through VS Code's logger service, the one "Set
 * Log Level…" changes (`_extensionTests.setLogLevel`, its entry for extension tests), and the lines
 * are read from the file VS Code writes for the channel, the one Show Logs opens.
 */
describe('OpenDev logs follow the log level', function () {
  this.timeout(180_000);
  const suite = fakeProviderSuite({ approvalLevel: 'auto' });
  const { fake } = suite;
  const logText = () => (existsSync(suite.api.logFile()) ? readFileSync(suite.api.logFile(), 'utf8') : '');
  const count = (pattern: RegExp) => logText().split('\n').filter((line) => pattern.test(line)).length;
  const REQUEST_LINE = /\[info\] provider request provider=openai .*status=ok/;
  let math: string;
  let mathBefore: string;

  /** Sets the default log level as "Set Log Level…" → "Set Default Log Level" does, and waits until the extension host has it. */
  async function setLogLevel(name: 'trace' | 'debug' | 'info', level: vscode.LogLevel): Promise<void> {
    await vscode.commands.executeCommand('_extensionTests.setLogLevel', name);
    await until(() => vscode.env.logLevel === level, `the log level ${name} to reach the extension host`);
  }

  /** One chat turn whose model edits math.ts (an undo checkpoint is taken), waited for until its request lines are in the log. */
  async function editTurn(from: string, to: string): Promise<void> {
    const requests = count(REQUEST_LINE);
    fake.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }] },
      { toolCalls: [{ name: 'edit_file', arguments: { file_path: 'math.ts', old_content: from, new_content: to } }] },
      { text: 'Changed.' },
    );
    const result = await suite.api.send(`change ${from} to ${to}`);
    assert.equal(result?.status, 'completed', JSON.stringify(suite.api.transcript().slice(-3)).slice(0, 2000));
    assert.equal(readFileSync(math, 'utf8').includes(to), true, 'the edit was made');
    await until(() => count(REQUEST_LINE) >= requests + 3, "the turn's three request lines in the log");
  }

  before(() => {
    math = join(suite.folder, 'math.ts');
    mathBefore = readFileSync(math, 'utf8');
  });
  after(async () => {
    await setLogLevel('info', vscode.LogLevel.Info);
    writeFileSync(math, mathBefore);
  });

  it('at Debug the undo checkpoint of an edit is logged; back at Info it is not; at Trace the request content is, never the key', async () => {
    assert.equal(vscode.env.logLevel, vscode.LogLevel.Info, 'the test starts at the default level');
    await setLogLevel('debug', vscode.LogLevel.Debug);
    await editTurn('export const PI = 3.14159;', 'export const PI = 3.1416;');
    await until(() => count(/\[debug\] undo: checkpoint step=\d+ tool=edit_file/) === 1, 'the debug line of the checkpoint');
    assert.equal(count(/\[trace\]/), 0, 'nothing at trace while the level is debug');

    await setLogLevel('info', vscode.LogLevel.Info);
    const debugLines = count(/\[debug\]/);
    await editTurn('export const PI = 3.1416;', 'export const PI = 3.142;');
    assert.equal(count(/\[debug\]/), debugLines, 'no debug line once the level is back at info');

    await setLogLevel('trace', vscode.LogLevel.Trace);
    fake.enqueue({ text: 'Traced.' });
    assert.equal((await suite.api.send('a question seen only at trace'))?.status, 'completed');
    await until(() => /\[trace\] provider request content .*a question seen only at trace/.test(logText()), 'the request content at trace');
    assert.ok(!logText().includes('sk-integration'), 'no key in the log, even at trace');
  });
});
