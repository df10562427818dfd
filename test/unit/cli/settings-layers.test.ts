import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseCliArgs, UsageError } from '../../../src/cli/args';
import { readCliSettingsFiles, resolveCliSettings, settingsFromEnv, thinkingLevel } from '../../../src/cli/settings-from-env';
import { DEFAULT_NETWORK_ALLOW } from '../../../src/core/config/sandbox-settings';
import { FakeProvider } from '../../fixtures/fake-provider';
import { trustFolder } from '../../helpers/trust-folder';
import { newHome, opendev, workspace } from './cli-harness';

const write = (file: string, value: unknown) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
};

describe('CLI settings: defaults < environment < ~/.opendev/settings.json < .opendev/settings.json < flags', () => {
  let root: string;
  let home: string;
  let ws: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-cli-settings-'));
    home = join(root, 'home');
    ws = join(root, 'ws');
    mkdirSync(home, { recursive: true });
    mkdirSync(ws, { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const userFile = () => join(home, 'settings.json');
  const projectFile = () => join(ws, '.opendev', 'settings.json');
  const resolve = (argv: string[], env: NodeJS.ProcessEnv = {}, interactive = false) => {
    const full = { OPENDEV_HOME: home, ...env };
    // The precedence of a folder the user trusts, its endpoints confirmed (test/unit/cli/cli-trust.test.ts: the untrusted case).
    return resolveCliSettings({ options: parseCliArgs(argv), argv, env: full, interactive, files: readCliSettingsFiles(full, ws), projectTrusted: true, endpointConfirmed: () => true });
  };

  it('each key: the environment, then the user file, then the project file, then the flag wins', () => {
    const env = { OPENDEV_PROVIDER: 'anthropic', OPENDEV_MODEL: 'env-model', OPENDEV_THINKING: 'low', OPENDEV_CONTEXT_WINDOW: '32000', OPENDEV_EMBEDDING_MODEL: 'env-embed', OPENDEV_COMPACT_MODEL: 'env-compact', OPENDEV_PLAYBOOK_LEARN: '0' };
    let r = resolve([], env);
    assert.deepEqual([r.settings.provider, r.settings.model, r.thinking, r.settings.contextWindow, r.settings.embeddingModel, r.roles.compact?.model, r.playbookLearning, r.approval], ['anthropic', 'env-model', 'low', 32_000, 'env-embed', 'env-compact', false, 'semi-auto']);

    write(userFile(), { provider: 'openai-compatible', model: 'user-model', baseUrl: 'http://127.0.0.1:2/v1', thinkingLevel: 'medium', contextWindow: 64_000, embeddingModel: 'user-embed', roles: { compact: { model: 'user-compact' } }, playbook: { learn: true }, approvalLevel: 'manual', maxIterations: 10 });
    r = resolve([], env);
    assert.deepEqual([r.settings.provider, r.settings.model, r.settings.baseUrl, r.thinking, r.settings.contextWindow, r.settings.embeddingModel, r.roles.compact?.model, r.playbookLearning, r.approval, r.maxIterations], ['openai-compatible', 'user-model', 'http://127.0.0.1:2/v1', 'medium', 64_000, 'user-embed', 'user-compact', true, 'manual', 10]);

    write(projectFile(), { provider: 'openai', model: 'project-model', baseUrl: 'http://127.0.0.1:3/v1', thinkingLevel: 'high', contextWindow: 128_000, embeddingModel: 'project-embed', roles: { compact: { model: 'project-compact' } }, playbook: { learn: false }, approvalLevel: 'auto', maxIterations: 20 });
    r = resolve([], env);
    assert.deepEqual([r.settings.provider, r.settings.model, r.settings.baseUrl, r.thinking, r.settings.contextWindow, r.settings.embeddingModel, r.roles.compact?.model, r.playbookLearning, r.approval, r.maxIterations], ['openai', 'project-model', 'http://127.0.0.1:3/v1', 'high', 128_000, 'project-embed', 'project-compact', false, 'auto', 20]);

    r = resolve(['--provider', 'anthropic', '-m', 'flag-model', '--thinking', 'off', '--approval', 'semi-auto', '--max-iterations', '30'], env);
    assert.deepEqual([r.settings.provider, r.settings.model, r.thinking, r.approval, r.maxIterations], ['anthropic', 'flag-model', 'off', 'semi-auto', 30], 'a typed --approval semi-auto beats the project file');
    assert.equal(resolve(['--approval=manual'], env).approval, 'manual');
    assert.deepEqual(r.warnings, []);
  });

  it('the -p and interactive thinking defaults stay below every layer', () => {
    assert.equal(resolve([], {}, false).thinking, 'off');
    assert.equal(resolve([], {}, true).thinking, 'medium');
    write(projectFile(), { thinkingLevel: 'low' });
    assert.equal(resolve([], {}, false).thinking, 'low');
    assert.equal(thinkingLevel(parseCliArgs([]), { OPENDEV_HOME: home }, false, readCliSettingsFiles({ OPENDEV_HOME: home }, ws)), 'low');
  });

  it('settingsFromEnv keeps its contract and takes the files when given', () => {
    write(projectFile(), { model: 'project-model', apiKey: 'sk-from-file' });
    const env = { OPENDEV_HOME: home, OPENAI_API_KEY: 'env-key' };
    assert.equal(settingsFromEnv(parseCliArgs([]), env).model, 'gpt-4.1', 'without files: defaults and environment only');
    const s = settingsFromEnv(parseCliArgs([]), env, readCliSettingsFiles(env, ws));
    assert.deepEqual([s.model, s.apiKey], ['project-model', 'env-key']);
    assert.equal(settingsFromEnv(parseCliArgs([]), { OPENDEV_HOME: home }, readCliSettingsFiles(env, ws)).apiKey, undefined, 'a key in a file is never used');
  });

  it('sandbox: the defaults, OPENDEV_SANDBOX, then the files; a bad OPENDEV_SANDBOX is a usage error', () => {
    assert.deepEqual(resolve([]).sandbox, { enabled: true, networkAllow: [...DEFAULT_NETWORK_ALLOW], writeAllow: [], mcp: true });
    assert.equal(resolve([], { OPENDEV_SANDBOX: 'off' }).sandbox.enabled, false);
    write(userFile(), { sandbox: { enabled: true, network: { allow: ['example.com'] } } });
    write(projectFile(), { sandbox: { write: { allow: ['~/.cache/foo'] }, mcp: false } });
    assert.deepEqual(resolve([], { OPENDEV_SANDBOX: '0' }).sandbox, { enabled: true, networkAllow: ['example.com'], writeAllow: ['~/.cache/foo'], mcp: false });
    assert.throws(() => resolve([], { OPENDEV_SANDBOX: 'maybe' }), (e: Error) => e instanceof UsageError && /OPENDEV_SANDBOX="maybe"/.test(e.message));
  });

  it('a bad environment variable is still a usage error; a bad file is a warning', () => {
    write(projectFile(), '{ "model": ');
    assert.throws(() => resolve([], { OPENDEV_THINKING: 'max' }), (e: Error) => e instanceof UsageError && /OPENDEV_THINKING="max" is not one of/.test(e.message));
    const r = resolve([]);
    assert.equal(r.settings.model, 'gpt-4.1');
    assert.equal(r.warnings.length, 1);
    assert.match(r.warnings[0]!, new RegExp(`^settings: ${projectFile()} is not valid JSON: Unexpected end of JSON input \\(line 1, column 12\\)`));
  });
});

describe('opendev -p with settings files', () => {
  const fake = new FakeProvider();
  let home: string;
  let ws: string;
  const env = (extra: Record<string, string> = {}) => ({ OPENAI_API_KEY: 'env-key', OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_HOME: home, ...extra });
  const projectFile = () => join(ws, '.opendev', 'settings.json');

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    home = newHome();
    ws = mkdtempSync(join(tmpdir(), 'opendev-cli-settings-ws-'));
    cpSync(workspace, ws, { recursive: true });
  });

  it('the project file chooses the model over the user file; a flag over both', async () => {
    write(join(home, 'settings.json'), { model: 'user-model' });
    write(projectFile(), { model: 'project-model' });
    fake.enqueue({ text: 'From the project model.' });
    let r = await opendev(['-p', 'hi'], env(), { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'From the project model.\n');
    assert.equal(fake.requests[0]!.body.model, 'project-model');
    assert.equal(r.stderr, '', 'a clean configuration says nothing');

    fake.reset();
    fake.enqueue({ text: 'From the flag.' });
    r = await opendev(['-p', 'hi', '-m', 'flag-model', '-C', ws], env());
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fake.requests[0]!.body.model, 'flag-model');
  });

  it('an API key in a settings file is ignored and warned about; the request carries the environment key', async () => {
    write(join(home, 'settings.json'), { apiKey: 'sk-user-file-secret' });
    write(projectFile(), { OPENAI_API_KEY: 'sk-project-file-secret', model: 'project-model' });
    fake.enqueue({ text: 'ok' });
    const r = await opendev(['-p', 'hi'], env(), { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fake.requests[0]!.headers.authorization, 'Bearer env-key');
    assert.equal(fake.requests[0]!.body.model, 'project-model', 'the rest of the file applies');
    assert.match(r.stderr, new RegExp(`${join(home, 'settings.json')}: "apiKey" looks like an API key and is ignored.*Set it in the environment instead`));
    assert.match(r.stderr, new RegExp(`${projectFile()}: "OPENAI_API_KEY" looks like an API key and is ignored`));
    assert.doesNotMatch(r.stderr + r.stdout + JSON.stringify(fake.requests), /file-secret/);

    const none = await opendev(['-p', 'hi'], { OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_HOME: home }, { cwd: ws });
    assert.equal(none.code, 2, 'a key in a file never stands in for the environment');
    assert.match(none.stderr, /no API key for OpenAI\. Set OPENAI_API_KEY/);
  });

  it('a corrupt project file is reported with its path and problem, left as it is, and the run goes on', async () => {
    const broken = '{\n  "model": "project-model",\n}\n';
    write(projectFile(), broken);
    write(join(home, 'settings.json'), { model: 'user-model', colour: 'blue' });
    fake.enqueue({ text: 'Still working.' });
    const r = await opendev(['-p', 'hi'], env(), { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Still working.\n');
    assert.equal(fake.requests[0]!.body.model, 'user-model', 'the user layer still applies');
    assert.match(r.stderr, new RegExp(`opendev: settings: ${projectFile()} is not valid JSON: .*\\(line 3, column 1\\)\\. Its settings are ignored until it is fixed`));
    assert.equal(r.stderr.split('unknown setting "colour" is ignored').length - 1, 1, 'an unknown key is warned about once');
    assert.equal(readFileSync(projectFile(), 'utf8'), broken);
  });

  it('approvalLevel from the (trusted) project file governs -p; a typed --approval wins', async () => {
    write(projectFile(), { approvalLevel: 'auto' });
    await trustFolder(home, ws);
    fake.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'touch made-by-agent.txt' } }] }, { text: 'Made it.' });
    let r = await opendev(['-p', 'make a file'], env(), { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(existsSync(join(ws, 'made-by-agent.txt')), 'auto from the project file ran the command');
    assert.doesNotMatch(r.stderr, /approval denied/);

    rmSync(join(ws, 'made-by-agent.txt'));
    fake.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'touch made-by-agent.txt' } }] }, { text: 'Could not.' });
    r = await opendev(['-p', 'make a file', '--approval', 'semi-auto'], env(), { cwd: ws });
    assert.match(r.stderr, /approval denied/);
    assert.equal(existsSync(join(ws, 'made-by-agent.txt')), false);
  });

  it('/config prints the effective settings with their sources and no key', async () => {
    write(projectFile(), { model: 'project-model', thinkingLevel: 'low' });
    const r = await opendev(['-p', '/config', '--approval', 'auto'], env({ OPENDEV_CONTEXT_WINDOW: '50000' }), { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    const row = (key: string) => r.stdout.split('\n').find((l) => l.trimStart().startsWith(`${key} `)) ?? '';
    assert.match(row('model'), new RegExp(`project-model\\s+project \\(${projectFile()}\\)`));
    assert.match(row('thinkingLevel'), /low\s+project/);
    assert.match(row('approvalLevel'), /auto\s+flag --approval/);
    assert.match(row('contextWindow'), /50000\s+environment \(OPENDEV_CONTEXT_WINDOW\)/);
    assert.match(row('apiKey'), /set\s+environment \(OPENAI_API_KEY\)/);
    assert.match(row('provider'), /openai\s+default/);
    assert.match(r.stdout, new RegExp(`< user ${join(home, 'settings.json')} \\(none\\) < project ${projectFile()} <`));
    assert.doesNotMatch(r.stdout, /env-key/);
    assert.equal(fake.requests.length, 0, '/config needs no model call');
  });
});
