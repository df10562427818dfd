import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CapabilityCatalog, isLocalUrl, type FetchFunction } from '../../../../src/core/llm/capabilities/catalog';
import { modelIdCandidates } from '../../../../src/core/llm/capabilities/models-dev';
import { LAST_SYNC_FILE, ProviderCache } from '../../../../src/core/llm/capabilities/provider-cache';

const fixturePath = join(__dirname, '../../../../../test/fixtures/models/api.json');
const fixture = (): Record<string, any> => JSON.parse(readFileSync(fixturePath, 'utf8'));
const HOUR = 60 * 60 * 1000;

function tempHome(): string {
  return mkdtempSync(join(tmpdir(), 'opendev-home-'));
}

/** A fetch that must never be called (or counts the calls, answering with the fixture). */
function countingFetch(): FetchFunction & { calls: number } {
  const f = (async () => {
    f.calls++;
    return { ok: true, status: 200, json: async () => fixture() };
  }) as unknown as FetchFunction & { calls: number };
  f.calls = 0;
  return f;
}

/** A cache in `home` holding the fixture with gpt-4.1's context changed to `context`, synced at `syncedAt`. */
async function seedCache(home: string, syncedAt: number, context: number): Promise<string> {
  const data = fixture();
  data.openai.models['gpt-4.1'].limit.context = context;
  delete data['not-a-provider'];
  const dir = join(home, 'cache', 'providers');
  await new ProviderCache(dir).write(data, syncedAt);
  return dir;
}

/** A models.dev stand-in on 127.0.0.1 that answers only when `release()` is called. */
async function heldServer(body: unknown, status = 200) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let requests = 0;
  const server = http.createServer((_req, res) => {
    requests++;
    void released.then(() => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api.json`;
  return {
    url,
    release,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}

describe('capability catalogue', () => {
  it('before load() knows the built-in models, and flags unknown ones with conservative defaults', () => {
    const catalog = new CapabilityCatalog({ env: {}, home: tempHome(), fetch: countingFetch() });
    const sonnet = catalog.get('anthropic', 'claude-sonnet-4-5');
    assert.equal(sonnet.known, true);
    assert.equal(sonnet.contextWindow, 200_000);
    assert.equal(sonnet.vision, true);
    assert.equal(sonnet.reasoning, true);
    assert.deepEqual(sonnet.pricing, { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3 });
    assert.equal(catalog.get('openai', 'gpt-4.1').contextWindow, 1_047_576);
    assert.deepEqual(catalog.get('openai-compatible', 'my-local-llama'), {
      contextWindow: 128_000,
      maxOutputTokens: 8192,
      vision: false,
      reasoning: false,
      toolCalls: true,
      known: false,
    });
    assert.equal(catalog.source, 'builtin');
  });

  it('reads a local models.dev file from OPENDEV_MODELS_DEV_PATH and never fetches', async () => {
    const home = tempHome();
    const fetch = countingFetch();
    const catalog = new CapabilityCatalog({ env: { OPENDEV_MODELS_DEV_PATH: fixturePath }, home, fetch });
    await catalog.load();
    await catalog.whenRefreshed();
    assert.equal(catalog.source, 'file');
    const t = catalog.get('openai', 'text-only-1');
    assert.deepEqual(t, { contextWindow: 64_000, maxOutputTokens: 4096, vision: false, reasoning: true, toolCalls: true, known: true, pricing: { inputPerMTok: 1, outputPerMTok: 4 } });
    assert.equal(catalog.get('openai', 'broken-model').known, false, 'a malformed entry is skipped');
    assert.equal(await catalog.refresh(), false);
    assert.equal(fetch.calls, 0);
    assert.equal(existsSync(join(home, 'cache')), false);
  });

  it('falls back to the built-in list, with a warning, when OPENDEV_MODELS_DEV_PATH cannot be read', async () => {
    const catalog = new CapabilityCatalog({ env: { OPENDEV_MODELS_DEV_PATH: '/nonexistent/api.json' }, home: tempHome(), fetch: countingFetch() });
    await catalog.load();
    assert.equal(catalog.source, 'builtin');
    assert.match(catalog.warnings.join('\n'), /OPENDEV_MODELS_DEV_PATH=\/nonexistent\/api\.json could not be used/);
    assert.equal(catalog.get('openai', 'gpt-4.1').known, true);
  });

  it('uses a fresh cache without fetching', async () => {
    const home = tempHome();
    const now = Date.now();
    await seedCache(home, now - HOUR, 111_111);
    const fetch = countingFetch();
    const catalog = new CapabilityCatalog({ env: {}, home, fetch, now: () => now });
    await catalog.load();
    await catalog.whenRefreshed();
    assert.equal(catalog.source, 'cache');
    assert.equal(catalog.lastSync?.getTime(), new Date(now - HOUR).getTime());
    assert.equal(catalog.get('openai', 'gpt-4.1').contextWindow, 111_111);
    assert.equal(fetch.calls, 0);
  });

  it('serves a stale cache at once and refreshes it in the background from models.dev', async () => {
    const home = tempHome();
    const dir = await seedCache(home, Date.now() - 25 * HOUR, 111_111);
    const updated = fixture();
    updated.openai.models['gpt-4.1'].limit.context = 222_222;
    const server = await heldServer(updated);
    try {
      const catalog = new CapabilityCatalog({ env: {}, home, url: server.url });
      await catalog.load(); // resolves while models.dev has not answered yet
      assert.equal(catalog.get('openai', 'gpt-4.1').contextWindow, 111_111, 'stale data is served at once');
      while (server.requests() === 0) await new Promise((r) => setTimeout(r, 5));

      server.release();
      await catalog.whenRefreshed();
      assert.equal(catalog.get('openai', 'gpt-4.1').contextWindow, 222_222);
      assert.equal(catalog.source, 'cache');
      const onDisk = JSON.parse(readFileSync(join(dir, 'openai.json'), 'utf8'));
      assert.equal(onDisk.models['gpt-4.1'].limit.context, 222_222);
      assert.equal(onDisk.models['gpt-4.1'].knowledge, '2024-04', 'the provider object is stored as served');
      const synced = Date.parse(readFileSync(join(dir, LAST_SYNC_FILE), 'utf8').trim());
      assert.ok(Date.now() - synced < 60_000, 'the marker moved');
      assert.equal(existsSync(join(dir, 'not-a-provider.json')), false);
    } finally {
      await server.close();
    }
  });

  it('keeps the stale cache, silently, when the refresh fails', async () => {
    const home = tempHome();
    const dir = await seedCache(home, Date.now() - 25 * HOUR, 111_111);
    const marker = readFileSync(join(dir, LAST_SYNC_FILE), 'utf8');
    const server = await heldServer({ error: 'down' }, 503);
    try {
      server.release();
      const catalog = new CapabilityCatalog({ env: {}, home, url: server.url });
      await catalog.load();
      await catalog.whenRefreshed();
      assert.equal(catalog.get('openai', 'gpt-4.1').contextWindow, 111_111);
      assert.equal(readFileSync(join(dir, LAST_SYNC_FILE), 'utf8'), marker);
      assert.match(catalog.warnings.at(-1) ?? '', /HTTP 503/);
    } finally {
      await server.close();
    }
  });

  it('offline with no cache: the built-in list, no error, nothing written', async () => {
    const home = tempHome();
    const catalog = new CapabilityCatalog({ env: {}, home, url: 'http://127.0.0.1:9/api.json' });
    await catalog.load();
    await catalog.whenRefreshed();
    assert.equal(catalog.source, 'builtin');
    assert.equal(catalog.get('anthropic', 'claude-sonnet-4-5').contextWindow, 200_000);
    assert.equal(existsSync(join(home, 'cache', 'providers')), false);
    assert.equal(catalog.warnings.length, 1);
  });

  it('with no cache, a successful background download creates it', async () => {
    const home = tempHome();
    const fetch = countingFetch();
    const catalog = new CapabilityCatalog({ env: {}, home, fetch });
    await catalog.load();
    await catalog.whenRefreshed();
    assert.equal(fetch.calls, 1);
    assert.equal(catalog.source, 'cache');
    assert.equal(catalog.get('openai-compatible', 'qwen/qwen3-coder').contextWindow, 262_144);
    assert.ok(existsSync(join(home, 'cache', 'providers', 'openrouter.json')));
    assert.ok(existsSync(join(home, 'cache', 'providers', LAST_SYNC_FILE)));
  });

  it('OPENDEV_DISABLE_REMOTE_MODELS=1 never fetches, even with a stale cache', async () => {
    const home = tempHome();
    await seedCache(home, Date.now() - 48 * HOUR, 111_111);
    const fetch = countingFetch();
    const catalog = new CapabilityCatalog({ env: { OPENDEV_DISABLE_REMOTE_MODELS: '1' }, home, fetch });
    await catalog.load();
    await catalog.whenRefreshed();
    assert.equal(await catalog.refresh(), false);
    assert.equal(fetch.calls, 0);
    assert.equal(catalog.get('openai', 'gpt-4.1').contextWindow, 111_111);

    const empty = new CapabilityCatalog({ env: { OPENDEV_DISABLE_REMOTE_MODELS: '1' }, home: tempHome(), fetch });
    await empty.load();
    assert.equal(empty.source, 'builtin');
    assert.equal(fetch.calls, 0);
  });

  it('reads OPENDEV_HOME from the environment for the cache location', () => {
    const home = tempHome();
    const catalog = new CapabilityCatalog({ env: { OPENDEV_HOME: home } });
    assert.equal(catalog.cacheDir, join(home, 'cache', 'providers'));
  });

  it('close() cancels a background refresh', async () => {
    const server = await heldServer(fixture());
    try {
      const catalog = new CapabilityCatalog({ env: {}, home: tempHome(), url: server.url });
      await catalog.load();
      while (server.requests() === 0) await new Promise((r) => setTimeout(r, 5));
      catalog.close();
      await catalog.whenRefreshed();
      assert.equal(catalog.source, 'builtin');
    } finally {
      server.release();
      await server.close();
    }
  });

  describe('lookups', () => {
    const catalog = new CapabilityCatalog({ env: { OPENDEV_MODELS_DEV_PATH: fixturePath }, home: tempHome() });
    before(() => catalog.load());

    it('finds an OpenAI-compatible model across providers, first-party hosts first', () => {
      const deepseek = catalog.get('openai-compatible', 'deepseek-chat');
      assert.equal(deepseek.contextWindow, 128_000);
      assert.deepEqual(deepseek.pricing, { inputPerMTok: 0.28, outputPerMTok: 0.42, cacheReadPerMTok: 0.028 });
      assert.equal(catalog.get('openai-compatible', 'qwen/qwen3-coder').contextWindow, 262_144);
    });

    it('drops prices for a model served from this machine or the local network', () => {
      assert.equal(catalog.get('openai-compatible', 'deepseek-chat', 'http://localhost:11434/v1').pricing, undefined);
      assert.equal(catalog.get('openai-compatible', 'deepseek-chat', 'http://192.168.1.20:8000/v1').pricing, undefined);
      assert.ok(catalog.get('openai-compatible', 'deepseek-chat', 'https://api.deepseek.com/v1').pricing);
      assert.ok(catalog.get('openai', 'gpt-4.1', 'http://localhost:8080/v1').pricing, 'only OpenAI-compatible servers');
    });

    it('matches a dated model id to its alias, and falls back to the built-in list', () => {
      assert.equal(catalog.get('anthropic', 'claude-sonnet-4-5-20250929').maxOutputTokens, 64_000);
      assert.equal(catalog.get('anthropic', 'claude-haiku-4-5').known, true, 'from the built-in list');
      assert.equal(catalog.get('openai', 'gpt-4.1').vision, true);
      assert.equal(catalog.get('openai', 'text-only-1').vision, false);
    });

    it('lists the models a provider serves for the model picker, with their context and prices', () => {
      const openai = catalog.list('openai');
      assert.deepEqual(openai.map((m) => m.id), ['gpt-4.1', 'text-only-1'], 'the loaded file wins; a model that does not parse is left out');
      assert.equal(openai[0]!.name, 'GPT-4.1 (fixture)');
      assert.equal(openai[0]!.capabilities.contextWindow, 1_047_576);
      assert.deepEqual(openai[0]!.capabilities.pricing, { inputPerMTok: 2, outputPerMTok: 8, cacheReadPerMTok: 0.5 });
      assert.deepEqual(catalog.list('openai-compatible'), [], 'a compatible server hosts anything: no list to offer');
      // Before load() (or without the provider in the file): the built-in list, dated ids hidden behind their alias.
      const builtin = new CapabilityCatalog({ env: {}, home: tempHome(), fetch: countingFetch() }).list('anthropic').map((m) => m.id);
      assert.ok(builtin.includes('claude-sonnet-4-5') && builtin.includes('claude-haiku-4-5'), builtin.join());
      assert.ok(!builtin.includes('claude-opus-4-5-20251101'), 'the dated id of a listed alias is not offered twice');
    });

    it('returns copies, so a caller cannot corrupt the catalogue', () => {
      const a = catalog.get('openai', 'gpt-4.1');
      a.contextWindow = 1;
      assert.equal(catalog.get('openai', 'gpt-4.1').contextWindow, 1_047_576);
    });

    it('tries ids from the most specific', () => {
      assert.deepEqual(modelIdCandidates('OpenAI/GPT-4.1-2025-04-14'), [
        'OpenAI/GPT-4.1-2025-04-14',
        'GPT-4.1-2025-04-14',
        'GPT-4.1',
        'openai/gpt-4.1-2025-04-14',
        'gpt-4.1-2025-04-14',
        'gpt-4.1',
      ]);
    });

    it('knows which base URLs are local', () => {
      for (const url of ['http://localhost:1234/v1', 'http://127.0.0.1:8000', 'http://[::1]:8080', 'http://10.0.0.5', 'http://box.local:11434', 'http://172.20.1.1']) {
        assert.equal(isLocalUrl(url), true, url);
      }
      for (const url of ['https://api.openai.com/v1', 'https://openrouter.ai/api/v1', 'http://172.32.0.1', 'http://fcc.example.com', undefined, 'not a url']) {
        assert.equal(isLocalUrl(url), false, String(url));
      }
    });
  });
});
