// The `opendev` entry (dist/cli.js): --version and --help answered before the agent's bundle loads,
// and the heavy libraries loaded on first use. NODE_DEBUG=module makes Node name every file it loads.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HELP } from '../../../src/cli/help';
import { createMainAgent } from '../../../src/core/agent/create-agent';
import { quickAnswer } from '../../../src/cli/quick-answer';
import { FakeProvider } from '../../fixtures/fake-provider';
import { newHome, opendev, repo, workspace } from './cli-harness';

/** What the CLI printed and every file under the repository it loaded, relative to it. */
async function traced(args: string[], env: Record<string, string | undefined> = {}) {
  const r = await opendev(args, { ...env, NODE_DEBUG: 'module' });
  const loaded = [...r.stderr.matchAll(/^MODULE \d+: load "([^"]+)"/gm)].map((m) => m[1]!).filter((file) => file.startsWith(repo)).map((file) => file.slice(repo.length + 1));
  return { ...r, loaded: [...new Set(loaded)] };
}

const { version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string };

describe('opendev entry', () => {
  it('answers --version and --help from dist/cli.js alone, with the help the full CLI prints', async () => {
    for (const [args, expected] of [[['--version'], version], [['--help'], HELP], [['-h'], HELP], [['--version', '--help'], HELP]] as const) {
      const r = await traced([...args]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, `${expected}\n`, args.join(' '));
      assert.deepEqual(r.loaded, ['dist/cli.js'], `${args.join(' ')} loaded more than the entry`);
    }
    // The same text through the full CLI (another flag beside --help, so the entry passes it on).
    const full = await traced(['--help', '--verbose']);
    assert.equal(full.stdout, `${HELP}\n`);
    assert.ok(full.loaded.includes('dist/cli-main.js'), 'the full CLI answered');
  });

  it('leaves every other command line to the full CLI, errors included', async () => {
    const r = await traced(['--version', '--bogus']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown option --bogus/);
    assert.ok(r.loaded.includes('dist/cli-main.js'));
  });

  it('-p loads the provider it uses and no other heavy library (MCP, web, the other SDK)', async () => {
    const fake = new FakeProvider();
    await fake.start();
    try {
      fake.enqueue({ text: 'Hello.' });
      // The command sandbox is looked up at once by design (in the background; its own tests cover it): off here.
      const env = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_HOME: newHome(), OPENDEV_SANDBOX: '0' };
      const r = await traced(['-p', 'hello'], env);
      assert.equal(r.code, 0, r.stderr.split('\n').filter((l) => !l.startsWith('MODULE')).join('\n'));
      assert.equal(r.stdout, 'Hello.\n');
      const vendors = r.loaded.filter((file) => file.startsWith('dist/vendor/'));
      assert.deepEqual(vendors, ['dist/vendor/openai.js']);
      assert.ok(!r.loaded.some((file) => file.startsWith('node_modules/')), `no library from node_modules: ${r.loaded.join(', ')}`);
    } finally {
      await fake.stop();
    }
  });
});

describe('opendev -p: the first request', () => {
  it('carries the whole prompt and every tool, with the work it does not need held until it has been answered', async function () {
    this.timeout(120_000);
    const fake = new FakeProvider();
    await fake.start();
    const home = newHome();
    let shadowBeforeAnswer: boolean | undefined;
    try {
      // Default settings (the sandbox on): git's warm-up snapshot must not have begun when the request arrives.
      fake.setResponder(() => {
        shadowBeforeAnswer ??= existsSync(join(home, 'snapshot'));
        return { text: 'Hello.' };
      });
      const r = await opendev(['-p', 'hello', '-C', workspace], { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_HOME: home });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'Hello.\n');
      const first = fake.requests[0]!.body as { tools: Array<{ function: { name: string } }>; messages: Array<{ role: string; content: string }> };
      const agent = await createMainAgent({ roles: { action: { provider: 'openai', model: 'gpt-4.1', apiKey: 'test-key' } }, workspaceRoot: workspace, home, undo: false, mcp: false, host: { openExternal: async () => true } });
      try {
        assert.deepEqual(first.tools.map((t) => t.function.name), agent.toolNames(), 'every tool of the agent');
      } finally {
        await agent.dispose();
      }
      const system = first.messages.find((m) => m.role === 'system')!.content;
      for (const skill of ['code-review', 'git-conventions', 'systematic-debugging', 'writing-tests']) assert.ok(system.includes(skill), `the skills index names ${skill}`);
      assert.equal(shadowBeforeAnswer, false, 'no undo snapshot before the first request was answered');
      assert.ok(existsSync(join(home, 'snapshot')), 'the warm-up snapshot was taken once it had been');
    } finally {
      await fake.stop();
    }
  });
});

describe('quickAnswer', () => {
  it('answers only a command line of --help, -h and --version', () => {
    assert.equal(quickAnswer(['--version']), 'dev');
    assert.equal(quickAnswer(['-h']), HELP);
    assert.equal(quickAnswer(['--version', '-h']), HELP);
    for (const argv of [[], ['-p', 'x'], ['--version', '-p', 'x'], ['--help', '-v'], ['mcp', '--help'], ['--version=1']]) {
      assert.equal(quickAnswer(argv), undefined, argv.join(' '));
    }
  });
});
