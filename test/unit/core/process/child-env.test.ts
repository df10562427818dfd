import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnv, configureSecretEnv, environmentWithSecrets, holdSecretEnv, isSecretEnvName, resetSecretEnvForTests } from '../../../../src/core/process/child-env';
import { runForeground } from '../../../../src/core/process/foreground-runner';
import { ProcessManager } from '../../../../src/core/process/process-manager';
import { environRange } from '../../../../src/core/process/scrub-environ';
import { runHooks } from '../../../../src/core/hooks/runner';

const MARKER = 'sk-childenv-marker-5d1f';

describe('childEnv: no secret variable in any child process', function () {
  this.timeout(30_000);
  afterEach(() => resetSecretEnvForTests());

  it('drops the provider keys, every *_API_KEY, *_TOKEN, *_SECRET (…_SECRET_KEY, _ACCESS_KEY, _PRIVATE_KEY, _PASSWORD), in any case; keeps the rest', () => {
    const base = {
      PATH: '/usr/bin',
      HOME: '/home/u',
      OPENAI_API_KEY: 'a',
      ANTHROPIC_API_KEY: 'b',
      OPENAI_BASE_URL: 'http://127.0.0.1:1/v1',
      GITHUB_TOKEN: 'c',
      ANTHROPIC_AUTH_TOKEN: 'd',
      AWS_SECRET_ACCESS_KEY: 'e',
      AWS_ACCESS_KEY_ID: 'not a secret',
      AWS_SESSION_TOKEN: 'f',
      CLIENT_SECRET: 'g',
      STRIPE_SECRET_KEY: 'h',
      DB_PASSWORD: 'i',
      APP_PRIVATE_KEY: 'j',
      SERPAPI_APIKEY: 'k',
      TOKEN: 'l',
      my_api_key: 'm',
      PGPASSWORD: 'n',
      TOKENIZERS_PARALLELISM: 'false',
      KEYBOARD: 'us',
      SECRETARY: 'x',
      ELECTRON_RUN_AS_NODE: '1',
    };
    assert.deepEqual(childEnv({}, base), { PATH: '/usr/bin', HOME: '/home/u', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', AWS_ACCESS_KEY_ID: 'not a secret', TOKENIZERS_PARALLELISM: 'false', KEYBOARD: 'us', SECRETARY: 'x' });
  });

  it("adds what the spawn site gives on purpose, and the user's secretEnvVars (names and * globs) go too", () => {
    configureSecretEnv({ extra: ['CORP_*', 'MY_PAT', 'X*Y'] });
    assert.ok(isSecretEnvName('CORP_LOGIN') && isSecretEnvName('my_pat') && isSecretEnvName('XaaY'));
    assert.equal(isSecretEnvName('MY_PATH'), false);
    const env = childEnv({ PYTHONUNBUFFERED: '1', GIT_OPTIONAL_LOCKS: '0' }, { CORP_LOGIN: 'x', MY_PAT: 'y', MY_PATH: '/p', XY: 'z' });
    assert.deepEqual(env, { MY_PATH: '/p', PYTHONUNBUFFERED: '1', GIT_OPTIONAL_LOCKS: '0' });
    configureSecretEnv({ extra: [] });
    assert.equal(isSecretEnvName('CORP_LOGIN'), false, 'a new list replaces the old one');
  });

  it('run_command (foreground), a background task (pty and pipes) and a hook see no key in `env`', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opendev-childenv-'));
    process.env.OPENAI_API_KEY = MARKER;
    process.env.CORP_LOGIN = `${MARKER}-corp`;
    process.env.OPENDEV_VISIBLE = 'visible-1';
    configureSecretEnv({ extra: ['CORP_*'] });
    const managers = [new ProcessManager({ tasksDir: join(dir, 'pty') }), new ProcessManager({ tasksDir: join(dir, 'pipe'), usePty: false })];
    try {
      const fg = await runForeground({ command: 'env', cwd: dir, env: { ADDED: 'on-purpose' }, idleMs: 10_000, absoluteMs: 20_000, killGraceMs: 500, headChars: 100_000, tailChars: 100_000 });
      assert.equal(fg.exitCode, 0, fg.output);
      assert.match(fg.output, /^OPENDEV_VISIBLE=visible-1$/m);
      assert.match(fg.output, /^ADDED=on-purpose$/m);
      assert.ok(!fg.output.includes(MARKER), 'no key in the foreground command');

      for (const manager of managers) {
        const info = manager.startBackground({ command: 'env', cwd: dir, env: {} });
        await manager.waitForTask(info.id, 10_000);
        const text = manager.output(info.id).text;
        assert.match(text, /OPENDEV_VISIBLE=visible-1/, `${info.mode}: the task ran`);
        assert.ok(!text.includes(MARKER), `${info.mode}: no key in the background task`);
      }

      const out = join(dir, 'hook-env.txt');
      const hooks = { SessionStart: [{ hooks: [{ type: 'command' as const, command: `env > ${out}` }] }] };
      await runHooks(hooks, { hook_event_name: 'SessionStart', session_id: 's', transcript_path: '', cwd: dir, source: 'startup' } as never, { projectDir: dir });
      const hookEnv = readFileSync(out, 'utf8');
      assert.match(hookEnv, /^OPENDEV_PROJECT_DIR=/m);
      assert.match(hookEnv, /^OPENDEV_VISIBLE=visible-1$/m);
      assert.ok(!hookEnv.includes(MARKER), 'no key in the hook');
    } finally {
      for (const manager of managers) await manager.shutdown();
      delete process.env.OPENAI_API_KEY;
      delete process.env.CORP_LOGIN;
      delete process.env.OPENDEV_VISIBLE;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('holdSecretEnv takes the keys out of process.env into memory; configureSecretEnv later takes the extra names too', () => {
    process.env.SOME_SERVICE_TOKEN = MARKER;
    process.env.LATER_ONE = 'later-secret';
    const env = holdSecretEnv();
    assert.equal(env.SOME_SERVICE_TOKEN, MARKER, 'the returned environment still has it');
    assert.equal(process.env.SOME_SERVICE_TOKEN, undefined);
    configureSecretEnv({ extra: ['LATER_ONE'] });
    assert.equal(process.env.LATER_ONE, undefined);
    assert.equal(environmentWithSecrets().SOME_SERVICE_TOKEN, MARKER);
    assert.equal(environmentWithSecrets().LATER_ONE, 'later-secret');
    resetSecretEnvForTests();
    assert.equal(process.env.SOME_SERVICE_TOKEN, MARKER, 'reset puts them back');
    delete process.env.SOME_SERVICE_TOKEN;
    delete process.env.LATER_ONE;
  });
});

describe('scrubEnvironBlock: /proc/<pid>/environ shows no key (Linux)', function () {
  this.timeout(30_000);
  before(function () {
    if (process.platform !== 'linux') this.skip();
  });

  it('environRange reads fields 50 and 51 of /proc/<pid>/stat, a command name with spaces and ")" included', () => {
    const tail = Array.from({ length: 52 - 2 }, (_, i) => String(i + 3)).join(' ');
    assert.deepEqual(environRange(`123 (a b) c) ${tail}`), [50, 51]);
    assert.equal(environRange('garbage'), undefined);
    assert.ok(environRange(readFileSync('/proc/self/stat', 'utf8')), 'this kernel shows the range');
  });

  it('a child that holds its secrets: the parent reads its /proc/<pid>/environ and finds no key value; other variables intact', async () => {
    const module = join(__dirname, '../../../../src/core/process/child-env.js');
    const script = `
      const m = require(${JSON.stringify(module)});
      m.holdSecretEnv();
      m.configureSecretEnv({ extra: ['CORP_*'] });
      process.stdout.write(JSON.stringify({ visible: process.env.KEEP_ME, gone: process.env.OPENAI_API_KEY ?? null, held: m.environmentWithSecrets().OPENAI_API_KEY }) + '\\n');
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['-e', script], {
      env: { PATH: process.env.PATH, KEEP_ME: 'keep-me-value', OPENAI_API_KEY: MARKER, GITHUB_TOKEN: `${MARKER}-gh`, CORP_LOGIN: `${MARKER}-corp`, AFTER: 'after-value' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d;
          if (out.includes('\n')) resolve(out.split('\n')[0]!);
        });
        child.on('exit', (code) => reject(new Error(`child exited (${code}) before it was ready`)));
      });
      assert.deepEqual(JSON.parse(line), { visible: 'keep-me-value', gone: null, held: MARKER });
      const environ = readFileSync(`/proc/${child.pid}/environ`);
      assert.equal(environ.indexOf(MARKER), -1, 'no key value in the environment block');
      const entries = environ.toString('utf8').split('\0').filter((e) => e !== '');
      for (const kept of ['KEEP_ME=keep-me-value', 'AFTER=after-value', `PATH=${process.env.PATH}`]) assert.ok(entries.includes(kept), `${kept} is intact`);
      for (const name of ['OPENAI_API_KEY', 'GITHUB_TOKEN', 'CORP_LOGIN']) assert.ok(entries.includes(`${name}=`), `${name} is shown empty`);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
