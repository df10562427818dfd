import * as assert from 'node:assert/strict';
import { CommandSandbox, type SandboxRuntimePort } from '../../../src/core/sandbox/command-sandbox';
import type { SandboxSettings } from '../../../src/core/config/sandbox-settings';
import { sandboxSettingsHold } from '../../../src/vscode/sandbox-settings-hold';

const runtime: SandboxRuntimePort = { availability: async () => ({ available: true }), wrap: async (c) => c, violationLines: () => [], release: () => undefined };
const settings: SandboxSettings = { enabled: true, networkAllow: ['registry.npmjs.org', 'github.com'], writeAllow: [], mcp: true };

describe('a sandbox settings change the running agent already follows (no rebuild)', () => {
  it('a host saved by "always allow" that the session already allows: the agent goes on', async () => {
    const sandbox = new CommandSandbox({ settings, workspaceRoot: '/w', home: '/h', runtime });
    await sandbox.allowHost('pypi.example.com', 'session');
    assert.equal(sandboxSettingsHold({ sandbox }, { ...settings, networkAllow: [...settings.networkAllow, 'pypi.example.com'] }), true);
    assert.equal(sandboxSettingsHold({ sandbox }, settings), true, 'nothing changed that it runs under');
  });

  it('a host the session does not allow, a host taken away, or another switch: a new agent', async () => {
    const sandbox = new CommandSandbox({ settings, workspaceRoot: '/w', home: '/h', runtime });
    assert.equal(sandboxSettingsHold({ sandbox }, { ...settings, networkAllow: [...settings.networkAllow, 'other.example.com'] }), false);
    assert.equal(sandboxSettingsHold({ sandbox }, { ...settings, networkAllow: ['github.com'] }), false);
    assert.equal(sandboxSettingsHold({ sandbox }, { ...settings, enabled: false }), false);
    assert.equal(sandboxSettingsHold({ sandbox }, { ...settings, writeAllow: ['~/data'] }), false);
    assert.equal(sandboxSettingsHold({ sandbox: undefined }, settings), false, 'an agent without a sandbox');
  });
});
