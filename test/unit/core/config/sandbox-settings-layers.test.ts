import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { environmentLayer } from '../../../../src/core/config/environment-layer';
import { editorSettingsLayer, loadLayeredSettings, projectSettingsFile, resolveLayeredSettings } from '../../../../src/core/config/layered-settings';
import { parseSettingsObject } from '../../../../src/core/config/settings-object';
import { formatSettingsProblem } from '../../../../src/core/config/settings-problem';
import { settingsReport } from '../../../../src/core/config/settings-report';
import type { SettingsLayer } from '../../../../src/core/config/settings-values';
import { restrictUntrustedLayer } from '../../../../src/core/config/untrusted-project';
import { DEFAULT_NETWORK_ALLOW, DEFAULT_SANDBOX_SETTINGS, sandboxSettingsOf } from '../../../../src/core/config/sandbox-settings';

describe('sandbox.* settings', () => {
  describe('in a settings file', () => {
    it('are written nested and read as flat keys; hosts are trimmed and lower-cased', () => {
      const r = parseSettingsObject({ sandbox: { enabled: false, network: { allow: [' Example.COM ', '*.corp.example', '127.0.0.1:8080', '[::1]:9000'] }, write: { allow: ['~/.cache/foo'] }, mcp: false } }, 'f.json');
      assert.deepEqual(r.problems, []);
      assert.deepEqual(r.values, {
        'sandbox.enabled': false,
        'sandbox.network.allow': ['example.com', '*.corp.example', '127.0.0.1:8080', '[::1]:9000'],
        'sandbox.write.allow': ['~/.cache/foo'],
        'sandbox.mcp': false,
      });
    });

    it('a bad value costs only its own key', () => {
      const r = parseSettingsObject({ model: 'm', sandbox: { enabled: 'yes', network: { allow: ['https://example.com/x'] }, write: { allow: ['~/ok', ''] }, mcp: true } }, 'f.json');
      assert.deepEqual(r.values, { model: 'm', 'sandbox.mcp': true });
      assert.deepEqual(r.problems.map((p) => [p.kind, p.key]), [['invalid-value', 'sandbox.enabled'], ['invalid-value', 'sandbox.network.allow'], ['invalid-value', 'sandbox.write.allow']]);
      assert.match(formatSettingsProblem(r.problems[1]!, { apiKeyHint: '' }), /"sandbox\.network\.allow" is invalid \(0: a host such as example\.com/);
      const star = parseSettingsObject({ sandbox: { network: { allow: ['*'] } } }, 'f.json');
      assert.deepEqual(star.problems.map((p) => p.key), ['sandbox.network.allow'], 'allowing everything is sandbox.enabled: false, said plainly');
      const many = parseSettingsObject({ sandbox: { write: { allow: Array.from({ length: 501 }, (_, i) => `~/d${i}`) } } }, 'f.json');
      assert.deepEqual(many.problems.map((p) => p.key), ['sandbox.write.allow'], 'at most 500 entries');
    });

    it('unknown sub-keys and wrong shapes are reported, the rest applies', () => {
      const r = parseSettingsObject({ sandbox: { enabeld: false, network: { allow: ['example.com'], deny: ['x.com'] }, write: ['~/x'], mcp: true } }, 'f.json');
      assert.deepEqual(r.values, { 'sandbox.network.allow': ['example.com'], 'sandbox.mcp': true });
      assert.deepEqual(r.problems.map((p) => [p.kind, p.key]), [['unknown-key', 'sandbox.enabeld'], ['unknown-key', 'sandbox.network.deny'], ['invalid-value', 'sandbox.write']]);
      assert.match(r.problems[0]!.detail, /sandbox\.enabled, sandbox\.network\.allow, sandbox\.write\.allow, sandbox\.mcp/);
      assert.deepEqual(parseSettingsObject({ sandbox: true }, 'f.json').problems.map((p) => [p.kind, p.key]), [['invalid-value', 'sandbox']]);
    });

    it('sandboxSettingsOf fills what no layer sets with the defaults, and never hands out the default list itself', () => {
      assert.deepEqual(sandboxSettingsOf({}), { enabled: true, networkAllow: [...DEFAULT_NETWORK_ALLOW], writeAllow: [], mcp: true });
      const s = sandboxSettingsOf({});
      s.networkAllow.push('evil.example');
      s.writeAllow.push('/');
      assert.deepEqual(DEFAULT_SANDBOX_SETTINGS.networkAllow, [...DEFAULT_NETWORK_ALLOW]);
      assert.deepEqual(DEFAULT_SANDBOX_SETTINGS.writeAllow, []);
      assert.deepEqual(sandboxSettingsOf({ 'sandbox.enabled': false, 'sandbox.network.allow': [], 'sandbox.mcp': false }), { enabled: false, networkAllow: [], writeAllow: [], mcp: false });
    });
  });

  describe('an untrusted project may only make the sandbox stricter', () => {
    const project = (values: SettingsLayer['values']): SettingsLayer => ({ kind: 'project', label: '/ws/.opendev/settings.json', values });

    it('turning it (or its MCP part) off and more writable folders are dropped, each said in words', () => {
      const r = restrictUntrustedLayer(project({ 'sandbox.enabled': false, 'sandbox.mcp': false, 'sandbox.write.allow': ['~/.ssh', '/etc'], model: 'm' }), {});
      assert.deepEqual(r.layer.values, { model: 'm' });
      assert.deepEqual(r.ignored, [
        { source: '/ws/.opendev/settings.json', key: 'sandbox.enabled', what: 'turn the command sandbox off' },
        { source: '/ws/.opendev/settings.json', key: 'sandbox.mcp', what: "run the project's MCP servers outside the sandbox" },
        { source: '/ws/.opendev/settings.json', key: 'sandbox.write.allow', what: 'let commands write to ~/.ssh, /etc' },
      ]);
    });

    it('turning it on and taking folders away apply', () => {
      const r = restrictUntrustedLayer(project({ 'sandbox.enabled': true, 'sandbox.mcp': true, 'sandbox.write.allow': [] }), { 'sandbox.enabled': false, 'sandbox.write.allow': ['~/mine'] });
      assert.deepEqual(r.layer.values, { 'sandbox.enabled': true, 'sandbox.mcp': true, 'sandbox.write.allow': [] });
      assert.deepEqual(r.ignored, []);
    });

    it('its network list keeps only the hosts the layers below allow (the built-in list when none sets one); the others are reported', () => {
      let r = restrictUntrustedLayer(project({ 'sandbox.network.allow': ['github.com', 'evil.example', 'pypi.org', 'exfil.example:443'] }), {});
      assert.deepEqual(r.layer.values['sandbox.network.allow'], ['github.com', 'pypi.org']);
      assert.deepEqual(r.ignored, [{ source: '/ws/.opendev/settings.json', key: 'sandbox.network.allow', what: 'let commands reach evil.example, exfil.example:443' }]);

      const below = { 'sandbox.network.allow': ['*.corp.example', 'localhost:8080'] };
      r = restrictUntrustedLayer(project({ 'sandbox.network.allow': ['git.corp.example', '*.eu.corp.example', 'corp.example', 'github.com', 'localhost:8080', 'localhost:9090', 'git.corp.example:22'] }), below);
      assert.deepEqual(r.layer.values['sandbox.network.allow'], ['git.corp.example', '*.eu.corp.example', 'localhost:8080'], 'a subdomain of an allowed *.domain, on the same port, is narrower');
      assert.deepEqual(r.ignored.map((i) => i.what), ['let commands reach corp.example, github.com, localhost:9090, git.corp.example:22']);

      r = restrictUntrustedLayer(project({ 'sandbox.network.allow': [] }), {});
      assert.deepEqual(r.layer.values['sandbox.network.allow'], [], 'no network at all is stricter');
      assert.deepEqual(r.ignored, []);
    });

    describe('through the loader', () => {
      let root: string;
      let home: string;
      let ws: string;
      const write = (file: string, value: unknown) => {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, JSON.stringify(value));
      };
      beforeEach(() => {
        root = mkdtempSync(join(tmpdir(), 'opendev-sandbox-settings-'));
        home = join(root, 'home');
        ws = join(root, 'ws');
        mkdirSync(home, { recursive: true });
        mkdirSync(ws, { recursive: true });
      });
      afterEach(() => rmSync(root, { recursive: true, force: true }));

      it('until trusted the user’s choices stand and the trust question lists what the project asked for; once trusted it applies', () => {
        write(join(home, 'settings.json'), { sandbox: { network: { allow: ['registry.npmjs.org', 'internal.example'] }, write: { allow: ['~/.cache/mine'] } } });
        write(projectSettingsFile(ws), { sandbox: { enabled: false, network: { allow: ['internal.example', 'paste.example'] }, write: { allow: ['~/.ssh'] }, mcp: false } });
        const untrusted = loadLayeredSettings({ env: {}, home, workspaceRoot: ws });
        const v = untrusted.effective.values;
        assert.deepEqual(sandboxSettingsOf(v), { enabled: true, networkAllow: ['internal.example'], writeAllow: ['~/.cache/mine'], mcp: true });
        assert.deepEqual(untrusted.effective.sources['sandbox.write.allow'], { layer: 'user', origin: join(home, 'settings.json') });
        assert.deepEqual(untrusted.untrusted.map((u) => u.what), [
          'turn the command sandbox off',
          "run the project's MCP servers outside the sandbox",
          'let commands write to ~/.ssh',
          'let commands reach paste.example',
        ]);
        const trusted = loadLayeredSettings({ env: {}, home, workspaceRoot: ws, projectTrusted: true });
        assert.deepEqual(sandboxSettingsOf(trusted.effective.values), { enabled: false, networkAllow: ['internal.example', 'paste.example'], writeAllow: ['~/.ssh'], mcp: false });
        assert.deepEqual(trusted.untrusted, []);
      });
    });
  });

  describe('OPENDEV_SANDBOX', () => {
    it('0/off/false and 1/on/true set sandbox.enabled in the environment layer; the user’s settings are above it', () => {
      for (const [value, enabled] of [['0', false], ['off', false], ['FALSE', false], ['1', true], [' on ', true], ['true', true]] as const) {
        const { layer, problems } = environmentLayer({ OPENDEV_SANDBOX: value });
        assert.deepEqual(problems, []);
        assert.equal(layer.values['sandbox.enabled'], enabled, value);
        assert.equal(layer.origins?.['sandbox.enabled'], 'OPENDEV_SANDBOX');
      }
      assert.equal(environmentLayer({}).layer.values['sandbox.enabled'], undefined);
      const r = resolveLayeredSettings({ env: { OPENDEV_SANDBOX: '0' }, user: { passthrough: {}, problems: [] } });
      assert.equal(sandboxSettingsOf(r.effective.values).enabled, false);
      assert.deepEqual(r.effective.sources['sandbox.enabled'], { layer: 'environment', origin: 'OPENDEV_SANDBOX' });
    });

    it('another value is a problem of that variable', () => {
      const { layer, problems } = environmentLayer({ OPENDEV_SANDBOX: 'maybe' });
      assert.equal(layer.values['sandbox.enabled'], undefined);
      assert.deepEqual(problems, [{ key: 'sandbox.enabled', variable: 'OPENDEV_SANDBOX', message: 'OPENDEV_SANDBOX="maybe" is not one of 0, off, false, 1, on, true' }]);
    });
  });

  describe('VS Code: opendev.sandbox.*', () => {
    it('map to the nested keys, with the setting as their origin; a bad entry is a problem of that setting', () => {
      const values: Record<string, unknown> = { 'sandbox.enabled': false, 'sandbox.network.allow': ['example.com'], 'sandbox.write.allow': ['~/.cache/foo'], 'sandbox.mcp': false };
      const user = editorSettingsLayer((key) => values[key]);
      assert.deepEqual(user.problems, []);
      assert.deepEqual(user.layer?.values, { 'sandbox.enabled': false, 'sandbox.network.allow': ['example.com'], 'sandbox.write.allow': ['~/.cache/foo'], 'sandbox.mcp': false });
      assert.equal(user.layer?.origins?.['sandbox.network.allow'], 'opendev.sandbox.network.allow');
      const bad = editorSettingsLayer((key) => ({ 'sandbox.network.allow': ['http://x'], 'sandbox.mcp': true })[key as string]);
      assert.deepEqual(bad.layer?.values, { 'sandbox.mcp': true });
      assert.deepEqual(bad.problems.map((p) => [p.kind, p.key, p.source]), [['invalid-value', 'sandbox.network.allow', 'VS Code settings']]);
    });

    it('the workspace’s values are restricted like a project’s file until the folder is trusted', () => {
      const workspace = editorSettingsLayer((key) => ({ 'sandbox.enabled': false, 'sandbox.network.allow': ['github.com', 'evil.example'] })[key as string], 'VS Code workspace settings', 'project');
      const user = editorSettingsLayer(() => undefined);
      const r = resolveLayeredSettings({ env: {}, user, workspace });
      assert.deepEqual(sandboxSettingsOf(r.effective.values), { ...DEFAULT_SANDBOX_SETTINGS, networkAllow: ['github.com'] });
      assert.deepEqual(r.effective.sources['sandbox.network.allow'], { layer: 'project', origin: 'opendev.sandbox.network.allow in the workspace settings' });
      assert.deepEqual(r.untrusted.map((u) => [u.source, u.key]), [['VS Code workspace settings', 'sandbox.enabled'], ['VS Code workspace settings', 'sandbox.network.allow']]);
    });
  });

  it('/config lists them with where they came from, and what applies when unset', () => {
    const r = resolveLayeredSettings({ env: { OPENDEV_SANDBOX: '1' }, user: editorSettingsLayer((key) => (key === 'sandbox.write.allow' ? ['~/.cache/foo'] : undefined)) });
    const report = settingsReport(r.effective, { order: [], apiKey: { set: false, source: '' }, problems: [] });
    const row = (key: string) => report.rows.find((x) => x.key === key);
    assert.deepEqual(row('sandbox.enabled'), { key: 'sandbox.enabled', value: 'true', source: 'environment (OPENDEV_SANDBOX)' });
    assert.deepEqual(row('sandbox.write.allow'), { key: 'sandbox.write.allow', value: '~/.cache/foo', source: 'user (opendev.sandbox.write.allow)' });
    assert.equal(row('sandbox.network.allow')?.value, `(not set: the ${DEFAULT_NETWORK_ALLOW.length} built-in package registries and git hosts)`);
    assert.match(row('sandbox.mcp')?.value ?? '', /^\(not set: on/);
  });
});
