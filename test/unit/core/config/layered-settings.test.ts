import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadHooksConfig } from '../../../../src/core/hooks/config';
import {
  editorSettingsLayer,
  loadLayeredSettings,
  projectSettingsFile,
  resolveLayeredSettings,
  settingsFileLayer,
} from '../../../../src/core/config/layered-settings';
import { mergeSettingsLayers } from '../../../../src/core/config/merge-settings';
import { formatSettingsProblem } from '../../../../src/core/config/settings-problem';
import type { SettingKey, SettingsLayer } from '../../../../src/core/config/settings-values';

const hint = { apiKeyHint: 'Set it in the environment instead.' };

describe('layered settings', () => {
  let root: string;
  let home: string;
  let ws: string;
  const write = (file: string, value: unknown) => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  };
  const userFile = () => join(home, 'settings.json');
  const projectFile = () => projectSettingsFile(ws);
  // The precedence rules are those of a folder the user trusts (the untrusted case is tested below).
  const load = (env: NodeJS.ProcessEnv = {}, flags?: SettingsLayer) => loadLayeredSettings({ env, home, workspaceRoot: ws, flags, projectTrusted: true, endpointConfirmed: () => true });
  const loadUntrusted = (env: NodeJS.ProcessEnv = {}) => loadLayeredSettings({ env, home, workspaceRoot: ws });

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-settings-'));
    home = join(root, 'home');
    ws = join(root, 'ws');
    mkdirSync(home, { recursive: true });
    mkdirSync(ws, { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  describe('an untrusted folder may only make things stricter', () => {
    it('its endpoint, provider and role endpoints are not applied, and each is reported in words', () => {
      write(userFile(), { provider: 'openai', baseUrl: 'http://127.0.0.1:2/user' });
      write(projectFile(), { provider: 'anthropic', baseUrl: 'http://127.0.0.1:9/theirs', model: 'project-model', roles: { compact: { model: 'small', baseUrl: 'http://127.0.0.1:9/c' }, vision: { model: 'eye' } } });
      const r = loadUntrusted();
      assert.equal(r.effective.values.provider, 'openai');
      assert.equal(r.effective.values.baseUrl, 'http://127.0.0.1:2/user');
      assert.equal(r.effective.values.model, 'project-model', 'choosing a model is allowed');
      assert.deepEqual(r.effective.values['roles.compact'], { model: 'small' }, 'the role keeps its model, not its endpoint');
      assert.deepEqual(r.effective.values['roles.vision'], { model: 'eye' });
      assert.deepEqual(r.untrusted.map((u) => u.what), [
        'switch the provider to anthropic',
        'send requests (with your API key) to http://127.0.0.1:9/theirs',
        "send the compact model's requests (with your API key) to http://127.0.0.1:9/c",
      ]);
      assert.ok(r.untrusted.every((u) => u.source === projectFile()));
    });

    it('the approval level may go down, never up; the context window may shrink, never grow', () => {
      write(userFile(), { approvalLevel: 'semi-auto', contextWindow: 64_000 });
      write(projectFile(), { approvalLevel: 'manual', contextWindow: 32_000 });
      let r = loadUntrusted();
      assert.equal(r.effective.values.approvalLevel, 'manual');
      assert.equal(r.effective.values.contextWindow, 32_000);
      assert.deepEqual(r.untrusted, []);
      write(projectFile(), { approvalLevel: 'auto', contextWindow: 1_000_000 });
      r = loadUntrusted();
      assert.equal(r.effective.values.approvalLevel, 'semi-auto');
      assert.equal(r.effective.values.contextWindow, 64_000);
      assert.deepEqual(r.untrusted.map((u) => u.key), ['approvalLevel', 'contextWindow']);
    });

    it('trusted, an endpoint the project chose is used only once the user confirmed it', () => {
      write(projectFile(), { baseUrl: 'http://127.0.0.1:9/theirs', roles: { thinking: { model: 't', baseUrl: 'http://127.0.0.1:9/t' } } });
      let r = loadLayeredSettings({ env: {}, home, workspaceRoot: ws, projectTrusted: true });
      assert.equal(r.effective.values.baseUrl, undefined);
      assert.deepEqual(r.effective.values['roles.thinking'], { model: 't' });
      assert.deepEqual(r.unconfirmedEndpoints.map((e) => `${e.role} ${e.provider} ${e.baseUrl}`), ['action openai http://127.0.0.1:9/theirs', 'thinking openai http://127.0.0.1:9/t']);
      r = loadLayeredSettings({ env: {}, home, workspaceRoot: ws, projectTrusted: true, endpointConfirmed: (_p, url) => url.endsWith('/theirs') });
      assert.equal(r.effective.values.baseUrl, 'http://127.0.0.1:9/theirs');
      assert.deepEqual(r.unconfirmedEndpoints.map((e) => e.role), ['thinking']);
    });

    it('the user’s own endpoint needs no confirmation', () => {
      write(userFile(), { baseUrl: 'http://127.0.0.1:2/user' });
      const r = loadLayeredSettings({ env: { OPENAI_BASE_URL: 'http://127.0.0.1:3/env' }, home, workspaceRoot: ws, projectTrusted: true });
      assert.equal(r.effective.values.baseUrl, 'http://127.0.0.1:2/user');
      assert.deepEqual(r.unconfirmedEndpoints, []);
    });
  });

  describe('precedence: defaults < environment < user < project < flags', () => {
    // One value per layer for every key; each step up must win, and say where it came from.
    const perLayer: Record<SettingKey, [env: string | undefined, user: unknown, project: unknown, flag: unknown]> = {
      provider: ['anthropic', 'openai-compatible', 'anthropic', 'openai'],
      model: ['env-model', 'user-model', 'project-model', 'flag-model'],
      baseUrl: ['http://127.0.0.1:1/env', 'http://127.0.0.1:2/user', 'http://127.0.0.1:3/project', 'http://127.0.0.1:4/flag'],
      contextWindow: ['32000', 64_000, 128_000, 256_000],
      embeddingModel: ['env-embed', 'user-embed', 'project-embed', 'flag-embed'],
      'openai.api': ['responses', 'chat', 'auto', 'responses'],
      approvalLevel: [undefined, 'manual', 'auto', 'semi-auto'],
      thinkingLevel: ['low', 'medium', 'high', 'off'],
      thinkingCadence: [undefined, 'every-step', 'when-needed', 'every-step'],
      'playbook.learn': ['0', true, false, true],
      'playbook.reflectEvery': [undefined, 5, 20, 10],
      'memory.summaryEvery': [undefined, 5, 15, 20],
      sessionTitles: ['0', 'model', 'first-prompt', 'when-needed'],
      maxIterations: [undefined, 10, 20, 30],
      web_search_provider: [undefined, 'searxng', 'duckduckgo', 'searxng'],
      chromium_path: [undefined, '/user/chromium', '/project/chromium', '/flag/chromium'],
      secretEnvVars: [undefined, ['USER_*'], ['PROJECT_*'], ['FLAG_*']],
      secretPaths: [undefined, ['~/user-secret'], ['~/project-secret'], ['~/flag-secret']],
      'sandbox.enabled': ['0', true, false, true],
      'sandbox.network.allow': [undefined, ['user.example.com'], ['project.example.com'], ['flag.example.com']],
      'sandbox.write.allow': [undefined, ['~/user-cache'], ['~/project-cache'], ['~/flag-cache']],
      'sandbox.mcp': [undefined, false, true, false],
      // Read from the environment only for their own provider (anthropic at the environment step).
      'azure.apiVersion': [undefined, '2024-10-21', '2025-01-01-preview', '2025-04-01-preview'],
      'azure.deployment': [undefined, 'user-dep', 'project-dep', 'flag-dep'],
      'bedrock.region': [undefined, 'us-east-1', 'eu-west-1', 'ap-south-1'],
      'vertex.region': [undefined, 'us-east5', 'europe-west1', 'global'],
      'vertex.projectId': [undefined, 'user-project', 'project-project', 'flag-project'],
      'roles.thinking': ['env-think', { model: 'user-think' }, { model: 'project-think' }, { model: 'flag-think' }],
      'roles.critique': ['env-critic', { model: 'user-critic' }, { model: 'project-critic' }, { model: 'flag-critic' }],
      'roles.vision': ['env-vision', { model: 'user-vision' }, { model: 'project-vision' }, { model: 'flag-vision' }],
      'roles.compact': ['env-compact', { model: 'user-compact' }, { model: 'project-compact' }, { model: 'flag-compact' }],
    };
    const ENV_VAR: Partial<Record<SettingKey, string>> = {
      provider: 'OPENDEV_PROVIDER',
      model: 'OPENDEV_MODEL',
      baseUrl: 'ANTHROPIC_BASE_URL', // the provider is anthropic at the environment step
      contextWindow: 'OPENDEV_CONTEXT_WINDOW',
      embeddingModel: 'OPENDEV_EMBEDDING_MODEL',
      'openai.api': 'OPENDEV_OPENAI_API',
      thinkingLevel: 'OPENDEV_THINKING',
      'playbook.learn': 'OPENDEV_PLAYBOOK_LEARN',
      sessionTitles: 'OPENDEV_SESSION_TITLES',
      'sandbox.enabled': 'OPENDEV_SANDBOX',
      'roles.thinking': 'OPENDEV_THINKING_MODEL',
      'roles.critique': 'OPENDEV_CRITIQUE_MODEL',
      'roles.vision': 'OPENDEV_VISION_MODEL',
      'roles.compact': 'OPENDEV_COMPACT_MODEL',
    };
    /** The file form of a flat key: `playbook.*`, `memory.*` and `sandbox.*` nest, `roles.x` goes under `roles`. */
    const fileOf = (entries: Array<[SettingKey, unknown]>) => {
      const out: Record<string, any> = {};
      for (const [key, value] of entries) {
        if (key.startsWith('playbook.')) (out.playbook ??= {})[key.slice(9)] = value;
        else if (key.startsWith('memory.')) (out.memory ??= {})[key.slice(7)] = value;
        else if (key.startsWith('openai.')) (out.openai ??= {})[key.slice(7)] = value;
        else if (/^(azure|bedrock|vertex)\./.test(key)) {
          const [group, name] = key.split('.');
          (out[group!] ??= {})[name!] = value;
        }
        else if (key.startsWith('sandbox.')) {
          const [, first, second] = key.split('.');
          out.sandbox ??= {};
          if (second) (out.sandbox[first!] ??= {})[second] = value;
          else out.sandbox[first!] = value;
        }
        else if (key.startsWith('roles.')) (out.roles ??= {})[key.slice(6)] = value;
        else out[key] = value;
      }
      return out;
    };
    const keys = Object.keys(perLayer) as SettingKey[];
    const env = Object.fromEntries(keys.flatMap((k) => (perLayer[k][0] !== undefined ? [[ENV_VAR[k]!, perLayer[k][0]]] : [])));
    const expectValue = (key: SettingKey, raw: unknown) =>
      key === 'contextWindow'
        ? Number(raw)
        : (key === 'playbook.learn' || key === 'sandbox.enabled') && typeof raw === 'string'
          ? raw === '1'
          : key === 'sessionTitles' && raw === '0'
            ? 'first-prompt'
            : key.startsWith('roles.') && typeof raw === 'string'
              ? { model: raw }
              : raw;

    it('the environment beats the defaults', () => {
      const { effective, environmentProblems } = load(env);
      assert.deepEqual(environmentProblems, []);
      for (const key of keys) {
        if (perLayer[key][0] === undefined) continue;
        assert.deepEqual(effective.values[key], expectValue(key, perLayer[key][0]), key);
        assert.deepEqual(effective.sources[key], { layer: 'environment', origin: ENV_VAR[key] }, key);
      }
      assert.equal(effective.values.approvalLevel, 'semi-auto');
      assert.deepEqual(effective.sources.approvalLevel, { layer: 'default', origin: 'built-in defaults' });
    });

    it('the user file beats the environment, the project file beats the user file, flags beat both', () => {
      write(userFile(), fileOf(keys.map((k) => [k, perLayer[k][1]])));
      let r = load(env);
      assert.deepEqual(r.problems, []);
      for (const key of keys) {
        assert.deepEqual(r.effective.values[key], perLayer[key][1], key);
        assert.deepEqual(r.effective.sources[key], { layer: 'user', origin: userFile() }, key);
      }
      write(projectFile(), fileOf(keys.map((k) => [k, perLayer[k][2]])));
      r = load(env);
      for (const key of keys) {
        // A project may not choose the browser the web tools launch, nor shorten the secret lists: the user's choice stays (tested below).
        const layer = key === 'chromium_path' || key === 'secretEnvVars' || key === 'secretPaths' ? 1 : 2;
        assert.deepEqual(r.effective.values[key], perLayer[key][layer], key);
        assert.deepEqual(r.effective.sources[key], layer === 1 ? { layer: 'user', origin: userFile() } : { layer: 'project', origin: projectFile() }, key);
      }
      const flags: SettingsLayer = { kind: 'flags', label: 'flags', values: Object.fromEntries(keys.map((k) => [k, perLayer[k][3]])), origins: { model: '--model' } };
      r = load(env, flags);
      for (const key of keys) assert.deepEqual(r.effective.values[key], perLayer[key][3], key);
      assert.deepEqual(r.effective.sources.model, { layer: 'flags', origin: '--model' });
    });

    it('a project’s chromium_path is ignored with a warning (it would launch a program of the repository); the user’s and OPENDEV_CHROMIUM’s choice stand', () => {
      write(userFile(), { chromium_path: '/usr/bin/chromium' });
      write(projectFile(), { chromium_path: './tools/evil.sh', web_search_provider: 'searxng' });
      const r = load({});
      assert.equal(r.effective.values.chromium_path, '/usr/bin/chromium');
      assert.deepEqual(r.effective.sources.chromium_path, { layer: 'user', origin: userFile() });
      assert.equal(r.effective.values.web_search_provider, 'searxng', 'the project’s other web setting applies');
      assert.equal(r.problems.length, 1);
      assert.equal(r.problems[0]!.kind, 'user-only');
      assert.match(formatSettingsProblem(r.problems[0]!, { apiKeyHint: '' }), /settings\.json: "chromium_path" is ignored: a project may not choose the program the web tools launch; set OPENDEV_CHROMIUM/);
      write(userFile(), {});
      assert.equal(load({}).effective.values.chromium_path, undefined, 'without a user choice there is none: the project’s is never used');
    });

    it('keys are independent: a project that sets only the model keeps the user’s provider and endpoint', () => {
      write(userFile(), { provider: 'anthropic', baseUrl: 'http://127.0.0.1:2/user' });
      write(projectFile(), { model: 'claude-project' });
      const { effective } = load({ OPENDEV_MODEL: 'env-model' });
      assert.equal(effective.values.provider, 'anthropic');
      assert.equal(effective.values.baseUrl, 'http://127.0.0.1:2/user');
      assert.equal(effective.values.model, 'claude-project');
    });

    it('the endpoint variable follows the provider chosen by any layer; the model defaults per provider', () => {
      write(projectFile(), { provider: 'anthropic' });
      const { effective } = load({ OPENAI_BASE_URL: 'http://127.0.0.1:1/openai', ANTHROPIC_BASE_URL: 'http://127.0.0.1:1/anthropic' });
      assert.equal(effective.values.baseUrl, 'http://127.0.0.1:1/anthropic');
      assert.deepEqual(effective.sources.baseUrl, { layer: 'environment', origin: 'ANTHROPIC_BASE_URL' });
      assert.equal(effective.values.model, 'claude-sonnet-4-5');
      assert.deepEqual(effective.sources.model, { layer: 'default', origin: 'the default for anthropic' });
    });
  });

  describe('VS Code: opendev.* is the user layer', () => {
    const editor = (values: Record<string, unknown>) => editorSettingsLayer((key) => values[key]);

    it('defaults < environment < opendev.* < project file, with the contributed empty defaults meaning unset', () => {
      write(projectFile(), { model: 'project-model', thinkingLevel: 'high' });
      const r = resolveLayeredSettings({
        env: { OPENDEV_MODEL: 'env-model', OPENDEV_THINKING: 'low', OPENDEV_EMBEDDING_MODEL: 'env-embed', OPENAI_BASE_URL: 'http://127.0.0.1:1/env' },
        user: editor({ model: 'editor-model', thinkingLevel: 'medium', approvalLevel: 'auto', baseUrl: '', contextWindow: 0, embeddingModel: '  ', 'playbook.learn': false, roles: { compact: { model: 'mini' }, vision: null } }),
        project: settingsFileLayer('project', projectFile()),
      });
      assert.deepEqual(r.problems, []);
      const v = r.effective.values;
      assert.equal(v.model, 'project-model');
      assert.equal(v.thinkingLevel, 'high');
      assert.equal(v.approvalLevel, 'auto');
      assert.deepEqual(r.effective.sources.approvalLevel, { layer: 'user', origin: 'opendev.approvalLevel' });
      assert.equal(v.baseUrl, 'http://127.0.0.1:1/env', "an empty opendev.baseUrl leaves the environment's");
      assert.equal(v.embeddingModel, 'env-embed');
      assert.equal(v.contextWindow, undefined);
      assert.equal(v['playbook.learn'], false);
      assert.deepEqual(v['roles.compact'], { model: 'mini' });
      assert.deepEqual(r.effective.sources['roles.compact'], { layer: 'user', origin: 'opendev.roles' });
      assert.equal(v['roles.vision'], undefined);
    });

    it('a bad opendev.* value is a problem of that setting only', () => {
      const r = resolveLayeredSettings({ env: {}, user: editor({ baseUrl: 'not a url', model: 'm' }) });
      assert.equal(r.effective.values.model, 'm');
      assert.equal(r.effective.values.baseUrl, undefined);
      assert.deepEqual(r.problems.map((p) => [p.kind, p.key, p.source]), [['invalid-value', 'baseUrl', 'VS Code settings']]);
    });

    it("the workspace's opendev.* values are a project layer: ignored until trusted, then their endpoint waits for the user's yes", () => {
      const workspace = editorSettingsLayer((key) => ({ baseUrl: 'http://127.0.0.1:9/their', model: 'their-model', approvalLevel: 'auto' })[key as string], 'VS Code workspace settings', 'project');
      const user = editor({ baseUrl: 'http://127.0.0.1:8/mine', approvalLevel: 'manual' });
      const untrusted = resolveLayeredSettings({ env: {}, user, workspace });
      assert.equal(untrusted.effective.values.baseUrl, 'http://127.0.0.1:8/mine');
      assert.equal(untrusted.effective.values.approvalLevel, 'manual');
      assert.equal(untrusted.effective.values.model, 'their-model', 'a model choice is harmless');
      assert.deepEqual(untrusted.effective.sources.model, { layer: 'project', origin: 'opendev.model in the workspace settings' });
      assert.deepEqual(untrusted.untrusted.map((i) => [i.source, i.key]), [['VS Code workspace settings', 'baseUrl'], ['VS Code workspace settings', 'approvalLevel']]);

      const trusted = resolveLayeredSettings({ env: {}, user, workspace, projectTrusted: true });
      assert.equal(trusted.effective.values.baseUrl, 'http://127.0.0.1:8/mine', 'an unconfirmed endpoint is not used');
      assert.equal(trusted.effective.values.approvalLevel, 'auto');
      assert.deepEqual(trusted.unconfirmedEndpoints.map((e) => [e.baseUrl, e.source]), [['http://127.0.0.1:9/their', 'opendev.baseUrl in the workspace settings']]);
      const confirmed = resolveLayeredSettings({ env: {}, user, workspace, projectTrusted: true, endpointConfirmed: (p, url) => p === 'openai' && url === 'http://127.0.0.1:9/their' });
      assert.equal(confirmed.effective.values.baseUrl, 'http://127.0.0.1:9/their');
    });
  });

  describe('bad input', () => {
    it('a file with a syntax error is reported with its path, line and column; the other layers still apply; the file is untouched', () => {
      const broken = '{\n  "model": "project-model",\n  "provider" "anthropic"\n}\n';
      write(projectFile(), broken);
      write(userFile(), { model: 'user-model' });
      const before = statSync(projectFile()).mtimeMs;
      const r = load();
      assert.equal(r.effective.values.model, 'user-model', 'the broken layer is skipped, the user layer applies');
      assert.equal(r.problems.length, 1);
      const message = formatSettingsProblem(r.problems[0]!, hint);
      assert.ok(message.startsWith(`${projectFile()} is not valid JSON: `), message);
      assert.match(message, /line 3, column 14/);
      assert.match(message, /ignored until it is fixed/);
      assert.equal(readFileSync(projectFile(), 'utf8'), broken, 'never rewritten');
      assert.equal(statSync(projectFile()).mtimeMs, before);
    });

    it('a wrong type costs only that key; an empty file, an array and a folder in place of the file are each reported', () => {
      write(projectFile(), { model: 42, thinkingLevel: 'max', contextWindow: 'big', provider: 'anthropic', roles: { compact: { model: '' }, critique: { model: 'critic' } }, playbook: 'yes' });
      const r = load();
      assert.equal(r.effective.values.provider, 'anthropic', 'the good keys of the same file apply');
      assert.deepEqual(r.effective.values['roles.critique'], { model: 'critic' });
      assert.equal(r.effective.values.thinkingLevel, 'medium');
      const lines = r.problems.map((p) => formatSettingsProblem(p, hint));
      assert.deepEqual(r.problems.map((p) => p.key), ['model', 'thinkingLevel', 'contextWindow', 'roles.compact', 'playbook']);
      assert.match(lines[0]!, /"model" is invalid \(.*expected string, received number\); this setting is ignored, the others apply/);
      assert.match(lines[1]!, /"thinkingLevel" is invalid \(.*"off"\|"low"\|"medium"\|"high"/);

      write(projectFile(), '  \n');
      assert.match(formatSettingsProblem(load().problems[0]!, hint), /is not valid JSON: the file is empty/);
      write(projectFile(), '["model"]');
      assert.match(formatSettingsProblem(load().problems[0]!, hint), /must hold a JSON object .* but it holds an array/);
      rmSync(projectFile());
      mkdirSync(projectFile());
      const folder = load();
      assert.equal(folder.problems[0]!.kind, 'unreadable');
      assert.match(formatSettingsProblem(folder.problems[0]!, hint), /cannot read .*settings\.json \(EISDIR/);
    });

    it('unknown keys are reported once each and ignored, the rest applies', () => {
      write(projectFile(), { modle: 'typo', model: 'ok-model', playbook: { learn: false, lern: true }, roles: { summarizer: { model: 'x' } }, $schema: 'https://example.com/s.json' });
      const r = load();
      assert.equal(r.effective.values.model, 'ok-model');
      assert.equal(r.effective.values['playbook.learn'], false);
      assert.deepEqual(r.problems.map((p) => [p.kind, p.key]), [['unknown-key', 'modle'], ['unknown-key', 'playbook.lern'], ['unknown-key', 'roles.summarizer']]);
      assert.match(formatSettingsProblem(r.problems[0]!, hint), /unknown setting "modle" is ignored \(known settings: provider, model,/);
    });

    it('API keys in a settings file are ignored and reported where they were found, without their value', () => {
      write(userFile(), { apiKey: 'sk-user-secret', anthropic_api_key: 'sk-ant-secret', roles: { compact: { model: 'mini', apiKey: 'sk-role-secret' } }, env: { OPENAI_API_KEY: 'sk-env-secret' }, model: 'user-model' });
      const r = load();
      assert.equal(r.effective.values.model, 'user-model');
      assert.deepEqual(r.effective.values['roles.compact'], { model: 'mini' }, 'the role applies without its key');
      assert.deepEqual(r.problems.filter((p) => p.kind === 'api-key').map((p) => p.key), ['apiKey', 'anthropic_api_key', 'roles.compact.apiKey', 'env.OPENAI_API_KEY']);
      const text = r.problems.map((p) => formatSettingsProblem(p, hint)).join('\n');
      assert.doesNotMatch(text, /sk-/, 'no secret is ever repeated');
      assert.match(text, new RegExp(`${userFile()}: "apiKey" looks like an API key and is ignored.*Set it in the environment instead\\.`));
      assert.equal(JSON.stringify(r.effective).includes('sk-'), false);
    });

    it('hooks and mcp_servers pass through untouched; the hooks loader reads the same files as before', () => {
      const hooks = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo project' }] }] };
      const mcp = { github: { command: 'gh-mcp', env: { GITHUB_API_KEY: 'x' } } };
      write(projectFile(), { hooks, mcp_servers: mcp, model: 42 });
      write(join(ws, '.claude', 'settings.json'), { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'echo claude' }] }] }, permissions: {} });
      const r = load();
      assert.deepEqual(r.passthrough.project, { hooks, mcp_servers: mcp });
      assert.deepEqual(r.problems.map((p) => p.kind), ['invalid-value'], 'credentials inside mcp_servers are for the server, not reported');
      const loaded = loadHooksConfig({ workspaceRoot: ws, opendevHome: home, projectTrusted: true });
      assert.deepEqual(loaded.warnings, []);
      assert.deepEqual(loaded.hooks.PreToolUse!.map((g) => g.hooks[0]!.command), ['echo claude', 'echo project'], 'a bad agent setting does not cost the hooks');
      const untrusted = loadHooksConfig({ workspaceRoot: ws, opendevHome: home });
      assert.deepEqual(untrusted.hooks, {}, 'an untrusted folder runs none of its hooks');
      assert.deepEqual(untrusted.untrusted.map((u) => `${u.file} ${u.events.join(',')} ${u.count}`), [`${join(ws, '.claude', 'settings.json')} PreToolUse 1`, `${projectFile()} PreToolUse 1`]);
    });
  });

  it('merge: the highest layer that sets a key wins; unset keys fall back to the built-in defaults', () => {
    const merged = mergeSettingsLayers([
      { kind: 'environment', label: 'env', values: { model: 'a', thinkingLevel: 'low' } },
      { kind: 'project', label: '/p/.opendev/settings.json', values: { model: 'b' } },
    ]);
    assert.equal(merged.values.model, 'b');
    assert.equal(merged.values.thinkingLevel, 'low');
    assert.equal(merged.values.provider, 'openai');
    assert.deepEqual(merged.sources.model, { layer: 'project', origin: '/p/.opendev/settings.json' });
    assert.deepEqual(merged.sources.thinkingLevel, { layer: 'environment', origin: 'env' });
  });
});
