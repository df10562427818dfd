// No key in any child process, through the real CLI (`dist/cli.js` against the fake provider): the
// agent's `env`, `printenv`, a background task and the user's hooks see no provider key and no
// variable the user's secretEnvVars names, nothing of them reaches the model, stdout or the saved
// session, and /proc/<cli pid>/environ does not show them while the CLI runs.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeProvider, toolResults } from '../../fixtures/fake-provider';
import { jsonLines, newHome, opendev, startCli } from './cli-harness';

const KEY = 'sk-cli-childenv-marker-8c21';
const EXTRA = 'corp-login-marker-3f70';

/** Every file under `dir` (recursively) whose bytes contain `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  const hits: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) hits.push(...filesContaining(full, needle));
    else if (readFileSync(full).includes(needle)) hits.push(full);
  }
  return hits;
}

describe('opendev CLI: no key in any child process', function () {
  this.timeout(60_000);
  const fake = new FakeProvider();
  let home: string;
  let ws: string;
  const env = () => ({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_HOME: home, CORP_LOGIN: EXTRA, OPENDEV_VISIBLE: 'visible-value' });

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    home = newHome();
    ws = mkdtempSync(join(tmpdir(), 'opendev-childenv-ws-'));
    writeFileSync(join(ws, 'README.md'), '# a project\n');
    const dump = (file: string) => ({ hooks: [{ type: 'command', command: `env > "$OPENDEV_PROJECT_DIR/${file}"` }] });
    // The user's own settings: one more secret variable (a glob), and hooks that save what they see.
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ secretEnvVars: ['CORP_*'], hooks: { SessionStart: [dump('.session-start-env')], PreToolUse: [{ matcher: 'run_command', ...dump('.pre-tool-env') }] } }));
  });

  it('-p --approval auto: `env`, `printenv`, a background task and hooks see no key; none in a request body, stdout or the home', async () => {
    fake.enqueue(
      { toolCalls: [{ id: 'call_env', name: 'run_command', arguments: { command: 'env' } }] },
      { toolCalls: [{ id: 'call_printenv', name: 'run_command', arguments: { command: 'printenv OPENAI_API_KEY CORP_LOGIN; echo "printenv exit $?"; echo "key=${OPENAI_API_KEY:-unset}"' } }] },
      { toolCalls: [{ id: 'call_bg', name: 'run_command', arguments: { command: 'env; sleep 0.2; echo bg-done', background: true } }] },
      { toolCalls: [{ name: 'task_complete', arguments: { summary: 'Looked at the environment.', status: 'success' } }] },
    );
    const r = await opendev(['-p', 'show me the environment', '--approval', 'auto', '--output-format', 'stream-json', '-C', ws], env());
    assert.equal(r.code, 0, r.stderr);
    jsonLines(r.stdout); // every line is an event

    assert.equal(fake.requests[0]!.headers.authorization, `Bearer ${KEY}`, 'the key still reaches the provider, from memory');
    const envOut = toolResults(fake.requests[1]!)[0]!.content;
    assert.match(envOut, /OPENDEV_VISIBLE=visible-value/, 'the command ran and saw the other variables');
    assert.match(envOut, /OPENAI_BASE_URL=/, 'an endpoint is not a secret');
    const printenvOut = toolResults(fake.requests[2]!)[0]!.content;
    assert.match(printenvOut, /printenv exit 1/);
    assert.match(printenvOut, /key=unset/);
    assert.match(toolResults(fake.requests[3]!)[0]!.content, /OPENDEV_VISIBLE=visible-value|bg-done|task/i);

    for (const [i, req] of fake.requests.entries()) {
      const body = JSON.stringify(req.body);
      assert.ok(!body.includes(KEY), `request ${i} carries no provider key`);
      assert.ok(!body.includes(EXTRA), `request ${i} carries no secretEnvVars value`);
    }
    for (const [name, text] of [['stdout', r.stdout], ['stderr', r.stderr]] as const) {
      assert.ok(!text.includes(KEY) && !text.includes(EXTRA), `no secret on ${name}`);
    }
    assert.deepEqual(filesContaining(home, KEY), [], 'no key in the saved session, the task logs or anything else in OPENDEV_HOME');
    assert.deepEqual(filesContaining(home, EXTRA), []);

    for (const file of ['.session-start-env', '.pre-tool-env']) {
      assert.ok(existsSync(join(ws, file)), `the ${file} hook ran`);
      const hookEnv = readFileSync(join(ws, file), 'utf8');
      assert.match(hookEnv, /^OPENDEV_VISIBLE=visible-value$/m);
      assert.ok(!hookEnv.includes(KEY) && !hookEnv.includes(EXTRA), `no secret in the ${file} hook's environment`);
    }
  });

  it("/proc/<cli pid>/environ of a running CLI shows neither the key nor the user's extra secret", async function () {
    if (process.platform !== 'linux') this.skip();
    let environ: Buffer | undefined;
    let pid: number | undefined;
    // The first model call is answered only after the CLI's environment block was read.
    fake.setResponder(() => {
      environ = readFileSync(`/proc/${pid}/environ`);
      return { text: 'Done.' };
    });
    const child = startCli(['-p', 'hi', '-C', ws], env());
    pid = child.pid;
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0, stderr);
    assert.equal(stdout, 'Done.\n');
    assert.ok(environ, 'the environment block was read while the CLI waited');
    assert.equal(environ.indexOf(KEY), -1, 'no provider key in /proc/<pid>/environ');
    assert.equal(environ.indexOf(EXTRA), -1, 'no secretEnvVars value in /proc/<pid>/environ');
    const entries = environ.toString('utf8').split('\0');
    assert.ok(entries.includes('OPENDEV_VISIBLE=visible-value'), 'other variables intact');
    assert.ok(entries.includes(`OPENAI_BASE_URL=${fake.openaiBaseUrl}`));
    assert.ok(entries.includes('OPENAI_API_KEY='), 'the variable is there, emptied');
  });
});
