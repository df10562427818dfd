// The CLI's V8 code cache (src/cli/code-cache.ts): a bundle loaded through it behaves as from
// require(), the cache is written once and then used, and a cache of another build, a damaged or a
// truncated one is never used (V8 itself compares only the source's length). Each load is a child
// process, as a user's run is: the cache is written at exit.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeCacheFile } from '../../../src/cli/code-cache';
import { opendev, newHome, workspace } from './cli-harness';
import { FakeProvider } from '../../fixtures/fake-provider';

const loaderModule = join(__dirname, '../../../src/cli/code-cache.js');

/** A folder with a bundle, a sibling it requires through the cache, and one it requires as usual. */
function project(): { dir: string; cacheDir: string; bundle: string; sibling: string } {
  const dir = mkdtempSync(join(tmpdir(), 'opendev-code-cache-'));
  mkdirSync(join(dir, 'vendor'));
  const bundle = join(dir, 'main.js');
  const sibling = join(dir, 'vendor/lib.js');
  writeFileSync(sibling, 'exports.twice = (n) => n * 2;\n');
  writeFileSync(join(dir, 'plain.js'), 'exports.name = "plain";\n');
  writeFileSync(bundle, main('"one"'));
  return { dir, cacheDir: join(dir, 'home/cache/code'), bundle, sibling };
}

/** The bundle: prints what it computed, with its require() and its module variables. */
function main(word: string): string {
  return [
    'const { twice } = require("./vendor/lib.js");',
    'const { name } = require("./plain.js");',
    'const path = require("node:path");',
    `process.stdout.write(JSON.stringify({ word: ${word}, twice: twice(21), name, dir: path.basename(__dirname), self: module.id === __filename, resolved: require.resolve("./plain.js") }));`,
    'module.exports = { ok: true };',
  ].join('\n');
}

/** Loads the bundle through the cache in a child process; what it printed, parsed. */
function load(p: ReturnType<typeof project>): Record<string, unknown> {
  const script = `const { requireWithCodeCache } = require(${JSON.stringify(loaderModule)});
const exported = requireWithCodeCache(${JSON.stringify(p.bundle)}, { cacheDir: ${JSON.stringify(p.cacheDir)}, alsoCached: new Set([${JSON.stringify(p.sibling)}]) });
if (!exported.ok) throw new Error('module.exports lost');`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as Record<string, unknown>;
}

const cacheOf = (p: ReturnType<typeof project>, file: string) => codeCacheFile(p.cacheDir, file);

describe('CLI code cache', () => {
  it('loads a bundle as require() would, and writes a private cache for it and its cached sibling', () => {
    const p = project();
    const first = load(p);
    assert.deepEqual(first, { word: 'one', twice: 42, name: 'plain', dir: p.dir.split('/').pop(), self: true, resolved: join(p.dir, 'plain.js') });
    assert.deepEqual(readdirSync(p.cacheDir).sort(), [cacheOf(p, p.bundle), cacheOf(p, p.sibling)].map((f) => f.split('/').pop()).sort());
    assert.equal(statSync(p.cacheDir).mode & 0o777, 0o700);
    assert.equal(statSync(cacheOf(p, p.bundle)).mode & 0o777, 0o600);
    // The next run uses the cache and leaves it as it is.
    const before = readFileSync(cacheOf(p, p.bundle));
    const beforeTime = statSync(cacheOf(p, p.bundle)).mtimeMs;
    assert.deepEqual(load(p), first);
    assert.ok(readFileSync(cacheOf(p, p.bundle)).equals(before));
    assert.equal(statSync(cacheOf(p, p.bundle)).mtimeMs, beforeTime);
  });

  it('runs the new code after the bundle changed, even at the same length, and replaces the cache', () => {
    const p = project();
    assert.equal(load(p).word, 'one');
    const stale = readFileSync(cacheOf(p, p.bundle));
    writeFileSync(p.bundle, main('"two"'));
    assert.equal(load(p).word, 'two');
    assert.ok(!readFileSync(cacheOf(p, p.bundle)).equals(stale), 'the cache was replaced');
    assert.equal(load(p).word, 'two');
  });

  it('ignores and replaces a damaged or truncated cache', () => {
    const p = project();
    load(p);
    const good = readFileSync(cacheOf(p, p.bundle));
    const damaged = Buffer.from(good);
    damaged[damaged.length - 10]! ^= 0xff;
    for (const bad of [damaged, good.subarray(0, good.length - 100), Buffer.from('not a cache')]) {
      writeFileSync(cacheOf(p, p.bundle), bad);
      assert.equal(load(p).word, 'one');
      assert.ok(readFileSync(cacheOf(p, p.bundle)).length > 100, 'a usable cache was written again');
    }
  });

  it('still loads when the cache cannot be written', () => {
    const p = project();
    mkdirSync(join(p.dir, 'home/cache'), { recursive: true });
    writeFileSync(p.cacheDir, 'a file where the folder should be');
    assert.equal(load(p).word, 'one');
    assert.equal(load(p).twice, 42);
  });

  it('serves `opendev -p` from the cache on the next run, and it answers the same', async function () {
    this.timeout(120_000);
    const fake = new FakeProvider();
    await fake.start();
    try {
      const home = newHome();
      const env = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_HOME: home };
      fake.enqueue({ text: 'Hello.' }, { text: 'Hello again.' });
      const once = await opendev(['-p', 'hello', '-C', workspace], env);
      assert.equal(once.code, 0, once.stderr);
      assert.equal(once.stdout, 'Hello.\n');
      const written = readdirSync(join(home, 'cache/code')).sort();
      assert.deepEqual(written.map((f) => f.replace(/-[0-9a-f]{16}\.v8$/, '')), ['cli-main.js', 'openai.js']);
      const again = await opendev(['-p', 'hello', '-C', workspace], env);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(again.stdout, 'Hello again.\n');
      assert.equal(again.stderr, once.stderr);
      // The same request, but for the session's own id.
      const [first, second] = fake.requests.map((r) => JSON.stringify(r.body));
      const session = (body: string) => /Session (\w+)\./.exec(body)![1]!;
      assert.ok(first!.replaceAll(session(first!), session(second!)) === second, 'the same first request');
    } finally {
      await fake.stop();
    }
  });
});
