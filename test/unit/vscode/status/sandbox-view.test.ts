import * as assert from 'node:assert/strict';
import { CommandSandbox, type SandboxRuntimePort } from '../../../../src/core/sandbox/command-sandbox';
import { DEFAULT_SANDBOX_SETTINGS } from '../../../../src/core/config/sandbox-settings';
import { sandboxView, sandboxViewWhenKnown } from '../../../../src/vscode/status/sandbox-view';
import { statusText, statusTooltip, type ChatStatus } from '../../../../src/vscode/status/status-text';

/** A runtime that says whether it can run, and runs nothing. */
function runtime(available: boolean): SandboxRuntimePort {
  return {
    availability: async () => (available ? { available: true } : { available: false, reason: 'bubblewrap (bwrap) is not installed', fix: 'sudo apt-get install bubblewrap socat' }),
    wrap: async (command) => command,
    violationLines: () => [],
    release: () => undefined,
  };
}

const sandbox = (enabled: boolean, available = true) => new CommandSandbox({ settings: { ...DEFAULT_SANDBOX_SETTINGS, enabled }, workspaceRoot: '/work/project', home: '/home/u', runtime: runtime(available) });
const base: ChatStatus = { provider: 'openai', model: 'gpt-4.1', mode: 'normal', busy: false };

describe('whether commands run sandboxed, as the status bar and the chat footer say it', () => {
  it('sandboxed: the status bar text stays as it is, its tooltip says commands run in the sandbox', async () => {
    const s = sandbox(true);
    const view = await sandboxViewWhenKnown(s);
    assert.equal(view.state, 'sandboxed');
    assert.equal(statusText({ ...base, sandbox: view }), '$(hubot) gpt-4.1 · normal');
    assert.match(statusTooltip({ ...base, sandbox: view }), /^Commands run in the sandbox/m);
    s.dispose();
  });

  it('unavailable: "unsandboxed" with a warning icon, and the tooltip gives the reason and the fix', async () => {
    const view = await sandboxViewWhenKnown(sandbox(true, false));
    assert.equal(view.state, 'unsandboxed');
    assert.equal(statusText({ ...base, sandbox: view }), '$(hubot) gpt-4.1 · normal · $(warning) unsandboxed');
    const tip = statusTooltip({ ...base, sandbox: view });
    assert.match(tip, /^Commands run unsandboxed, with your full access: bubblewrap \(bwrap\) is not installed\.$/m);
    assert.match(tip, /^Fix: sudo apt-get install bubblewrap socat\.$/m);
  });

  it('off: unsandboxed, naming the setting that turns it back on', async () => {
    const view = await sandboxViewWhenKnown(sandbox(false));
    assert.equal(view.state, 'unsandboxed');
    assert.match(view.detail ?? '', /opendev\.sandbox\.enabled is off/);
    // The user's own choice: the tooltip and the footer say it, the bar shows no warning.
    assert.equal(statusText({ ...base, sandbox: view }), '$(hubot) gpt-4.1 · normal');
    assert.match(statusTooltip({ ...base, sandbox: view }), /opendev\.sandbox\.enabled is off/);
  });

  it('before the sandbox has looked: "sandbox starting", no warning yet', () => {
    const view = sandboxView(sandbox(true));
    assert.equal(view.state, 'sandbox starting');
    assert.equal(statusText({ ...base, sandbox: view }), '$(hubot) gpt-4.1 · normal');
    assert.match(statusTooltip({ ...base, sandbox: view }), /^Checking whether commands can run in the sandbox/m);
  });

  it('without an agent yet the status says nothing about the sandbox', () => {
    assert.doesNotMatch(statusTooltip(base), /sandbox/i);
  });
});
