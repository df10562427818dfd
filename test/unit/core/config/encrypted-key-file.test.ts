import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EncryptedKeyFile, KeyFileTamperedError } from '../../../../src/core/config/encrypted-key-file';

describe('EncryptedKeyFile (the fallback store for API keys)', () => {
  const KEY = 'sk-live-0123456789abcdefSECRET';
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'opendev-keyfile-'));
    file = join(dir, 'nested', 'keys.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gives back what was stored, from a new instance (as after a reload), and forgets a deleted key', async () => {
    await new EncryptedKeyFile(file).store('opendev.apiKey.openai', KEY);
    await new EncryptedKeyFile(file).store('opendev.apiKey.anthropic', 'sk-ant-other');
    const reopened = new EncryptedKeyFile(file);
    assert.equal(await reopened.get('opendev.apiKey.openai'), KEY);
    assert.equal(await reopened.get('opendev.apiKey.anthropic'), 'sk-ant-other');
    assert.equal(await reopened.get('opendev.apiKey.gemini'), undefined);
    await reopened.delete('opendev.apiKey.openai');
    assert.equal(await new EncryptedKeyFile(file).get('opendev.apiKey.openai'), undefined);
    assert.equal(await new EncryptedKeyFile(file).get('opendev.apiKey.anthropic'), 'sk-ant-other');
  });

  it('never writes the key in clear, and the file is readable by its owner only', async () => {
    const store = new EncryptedKeyFile(file);
    await store.store('opendev.apiKey.openai', KEY);
    const raw = readFileSync(file);
    assert.equal(raw.includes(KEY), false, 'not as text');
    assert.equal(raw.includes(Buffer.from(KEY).toString('base64')), false, 'not as base64');
    assert.equal(raw.includes(Buffer.from(KEY).toString('hex')), false, 'not as hex');
    if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o777, 0o600);
  });

  it('two stores at once both land', async () => {
    const store = new EncryptedKeyFile(file);
    await Promise.all([store.store('a', 'value-a'), store.store('b', 'value-b'), store.store('c', 'value-c')]);
    assert.deepEqual(await Promise.all(['a', 'b', 'c'].map((n) => store.get(n))), ['value-a', 'value-b', 'value-c']);
  });

  it('a changed byte in the sealed data or its tag is detected, never decrypted to something else', async () => {
    await new EncryptedKeyFile(file).store('opendev.apiKey.openai', KEY);
    const original = JSON.parse(readFileSync(file, 'utf8'));
    for (const field of ['data', 'tag', 'iv'] as const) {
      const changed = structuredClone(original);
      const bytes = Buffer.from(changed.entries['opendev.apiKey.openai'][field], 'base64');
      bytes[0] = (bytes[0] ?? 0) ^ 0x01;
      changed.entries['opendev.apiKey.openai'][field] = bytes.toString('base64');
      writeFileSync(file, JSON.stringify(changed));
      await assert.rejects(new EncryptedKeyFile(file).get('opendev.apiKey.openai'), KeyFileTamperedError, `a changed ${field}`);
    }
  });

  it('an entry moved under another name does not open (the name is authenticated)', async () => {
    await new EncryptedKeyFile(file).store('opendev.apiKey.openai', KEY);
    const content = JSON.parse(readFileSync(file, 'utf8'));
    content.entries['opendev.apiKey.anthropic'] = content.entries['opendev.apiKey.openai'];
    writeFileSync(file, JSON.stringify(content));
    await assert.rejects(new EncryptedKeyFile(file).get('opendev.apiKey.anthropic'), KeyFileTamperedError);
  });

  it('the file does not open on another machine or for another user', async () => {
    await new EncryptedKeyFile(file, { machineMaterial: () => 'machine-a\nalice' }).store('k', KEY);
    assert.equal(await new EncryptedKeyFile(file, { machineMaterial: () => 'machine-a\nalice' }).get('k'), KEY);
    await assert.rejects(new EncryptedKeyFile(file, { machineMaterial: () => 'machine-b\nalice' }).get('k'), KeyFileTamperedError);
  });

  it('a file that is not a key file reads as empty and is started over by the next store', async () => {
    writeFileSync(join(dir, 'junk.json'), '{"not": "ours"');
    const store = new EncryptedKeyFile(join(dir, 'junk.json'));
    assert.equal(await store.get('k'), undefined);
    await store.store('k', 'v');
    assert.equal(await store.get('k'), 'v');
  });
});
