import * as assert from 'node:assert/strict';
import { ExtensionToWebviewSchema, WebviewToExtensionSchema } from '../../../src/shared/protocol';

describe('webview protocol', () => {
  it('accepts the messages the chat view sends', () => {
    for (const m of [{ type: 'ready' }, { type: 'send', text: 'hi' }, { type: 'stop' }, { type: 'newChat' }, { type: 'action', action: 'setApiKey' }]) {
      assert.equal(WebviewToExtensionSchema.safeParse(m).success, true, JSON.stringify(m));
    }
  });

  it('rejects anything else: unknown types, blank or huge text, unknown actions, non-objects', () => {
    const bad = [
      { type: 'exec', command: 'rm -rf /' },
      { type: 'send', text: '   ' },
      { type: 'send', text: 'x'.repeat(100_001) },
      { type: 'send' },
      { type: 'action', action: 'runShell' },
      'send',
      null,
    ];
    for (const m of bad) assert.equal(WebviewToExtensionSchema.safeParse(m).success, false, JSON.stringify(m)?.slice(0, 60));
  });

  it('validates what the extension sends to the view', () => {
    assert.equal(ExtensionToWebviewSchema.safeParse({ type: 'textDelta', id: 'e1', delta: 'x' }).success, true);
    assert.equal(ExtensionToWebviewSchema.safeParse({ type: 'upsert', entry: { kind: 'tool', id: 't', name: 'read_file', args: '{}', status: 'done' } }).success, false);
  });
});
