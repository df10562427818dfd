import * as assert from 'node:assert/strict';
import { ChatEntrySchema, ExtensionToWebviewSchema, WebviewToExtensionSchema } from '../../../src/shared/protocol';

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, v: unknown) => assert.equal(schema.safeParse(v).success, true, JSON.stringify(v));
const bad = (schema: { safeParse(v: unknown): { success: boolean } }, v: unknown) => assert.equal(schema.safeParse(v).success, false, JSON.stringify(v));

describe('webview protocol: history and restore to here', () => {
  it('accepts what the history view and the restore action send, and nothing else', () => {
    ok(WebviewToExtensionSchema, { type: 'listSessions' });
    ok(WebviewToExtensionSchema, { type: 'resumeSession', id: 'ab12cd34' });
    ok(WebviewToExtensionSchema, { type: 'deleteSession', id: 'ab12cd34' });
    ok(WebviewToExtensionSchema, { type: 'restoreTo', step: 3 });
    bad(WebviewToExtensionSchema, { type: 'resumeSession', id: '../../etc/passwd' });
    bad(WebviewToExtensionSchema, { type: 'deleteSession', id: 'AB12CD34' });
    bad(WebviewToExtensionSchema, { type: 'restoreTo', step: 0 });
    bad(WebviewToExtensionSchema, { type: 'restoreTo', step: 1.5 });
    bad(WebviewToExtensionSchema, { type: 'restoreTo', step: '2' });
  });

  it('accepts the session list and tool cards with a step', () => {
    const item = { id: 'ab12cd34', title: 'Fix the parser', firstPrompt: 'The parser crashes', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-02T00:00:00.000Z', messageCount: 4, usd: 0.01 };
    ok(ExtensionToWebviewSchema, { type: 'sessions', items: [item], currentId: 'ab12cd34' });
    ok(ExtensionToWebviewSchema, { type: 'sessions', items: [], problem: 'Open a folder first.' });
    ok(ExtensionToWebviewSchema, { type: 'showHistory' });
    bad(ExtensionToWebviewSchema, { type: 'sessions', items: [{ ...item, messageCount: -1 }] });
    ok(ChatEntrySchema, { kind: 'tool', id: 'tool-c1', name: 'write_file', args: '{}', status: 'ok', step: 2, undone: true });
    bad(ChatEntrySchema, { kind: 'tool', id: 'tool-c1', name: 'write_file', args: '{}', status: 'ok', step: -2 });
  });
});
