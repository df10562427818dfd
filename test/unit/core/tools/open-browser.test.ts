import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { systemOpener } from '../../../../src/cli/system-opener';
import { ToolDispatcher } from '../../../../src/core/agent/tool-dispatcher';
import type { HostPorts } from '../../../../src/core/host';
import { approvalGate } from '../../../../src/core/safety/approval-gate';
import type { ApprovalLevel } from '../../../../src/core/config/approval-level';
import { createBuiltinRegistry } from '../../../../src/core/tools/builtin-tools';
import type { ToolResult } from '../../../../src/core/tools/tool';
import type { ApprovalDecision, ApprovalRequest, UICallback } from '../../../../src/core/ui';
import { fakeOpener } from '../../../helpers/fake-opener';
import { toolContext } from '../../../helpers/tool-context';

describe('open_browser', function () {
  this.timeout(30_000);
  let root: string;
  const opened: string[] = [];
  const host: HostPorts = { openExternal: async (url) => (opened.push(url), true) };
  const asked: ApprovalRequest[] = [];
  let answer: ApprovalDecision = { action: 'allow' };
  const ui: UICallback = { onTextDelta() {}, onToolStart() {}, onToolEnd() {}, requestApproval: async (req) => (asked.push(req), answer) };
  const run = async (args: unknown, level: ApprovalLevel = 'auto', ports: HostPorts = host): Promise<ToolResult> => {
    const registry = createBuiltinRegistry(ports);
    const dispatcher = new ToolDispatcher(registry, approvalGate(registry, () => level));
    const [result] = await dispatcher.dispatch([{ id: 'o', name: 'open_browser', arguments: JSON.stringify(args) }], toolContext({ workspaceRoot: root, ui, host: ports }));
    return result!;
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-open-'));
    opened.length = 0;
    asked.length = 0;
    answer = { action: 'allow' };
  });

  it('opens an http(s) URL through the host and says so', async () => {
    const r = await run({ url: 'https://example.org/docs?a=1&b=2' });
    assert.equal(r.ok, true, r.output);
    assert.deepEqual(opened, ['https://example.org/docs?a=1&b=2']);
    assert.equal(r.output, "Opened https://example.org/docs?a=1&b=2 in the user's browser.");
  });

  it('asks for approval first (semi-auto and manual), and a denial opens nothing', async () => {
    answer = { action: 'deny' };
    const r = await run({ url: 'https://example.org/' }, 'semi-auto');
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.toolName, 'open_browser');
    assert.match(asked[0]!.args ?? '', /https:\/\/example\.org\//);
    assert.equal(r.errorKind, 'rejected');
    assert.deepEqual(opened, []);
    answer = { action: 'allow' };
    assert.equal((await run({ url: 'https://example.org/' }, 'manual')).ok, true);
    assert.deepEqual(opened, ['https://example.org/']);
  });

  it('plan mode refuses it: it acts on the user’s machine', async () => {
    const registry = createBuiltinRegistry(host);
    const r = await registry.execute({ id: 'p', name: 'open_browser', arguments: '{"url":"https://example.org/"}' }, toolContext({ workspaceRoot: root, host, mode: { mode: 'plan', autoApproveEdits: false } }));
    assert.equal(r.errorKind, 'permission');
    assert.deepEqual(opened, []);
  });

  it('opens viewable workspace files as file: URLs; refuses files a browser would not show, missing files and other schemes', async () => {
    mkdirSync(join(root, 'report'));
    writeFileSync(join(root, 'report', 'index.html'), '<h1>Report</h1>');
    writeFileSync(join(root, 'run.sh'), 'echo hi');
    assert.equal((await run({ url: 'report/index.html' })).ok, true);
    assert.deepEqual(opened, [pathToFileURL(join(root, 'report', 'index.html')).href]);
    assert.match((await run({ url: 'run.sh' })).output, /only opens files a browser shows/);
    assert.match((await run({ url: 'missing.html' })).output, /does not exist in the workspace/);
    assert.match((await run({ url: '/etc/hostname' })).output, /outside the workspace/);
    assert.match((await run({ url: 'javascript:alert(1)' })).output, /not javascript: addresses/);
    assert.equal(opened.length, 1);
    assert.equal((await run({ url: pathToFileURL(join(root, 'report', 'index.html')).href })).ok, true, 'a file: URL of a workspace file, as the screenshot tools take it');
    assert.match((await run({ url: 'file:///etc/hostname' })).output, /outside the workspace/);
    assert.equal(opened.length, 2);
  });

  it('is offered only where the host can open a browser', () => {
    assert.ok(createBuiltinRegistry(host).get('open_browser'));
    assert.equal(createBuiltinRegistry().get('open_browser'), undefined);
  });

  it('says so when nothing could open the URL', async () => {
    const r = await run({ url: 'https://example.org/' }, 'auto', { openExternal: async () => false });
    assert.equal(r.ok, false);
    assert.match(r.output, /Nothing could open https:\/\/example\.org\/ .*Give the user the address/);
  });

  describe("the CLI's system opener", () => {
    it('runs xdg-open with the URL as one argument, never through a shell', async () => {
      const fake = fakeOpener();
      const open = systemOpener({ platform: 'linux', env: { ...process.env, PATH: `${fake.binDir}${delimiter}${process.env.PATH}` } });
      const tricky = 'https://example.org/a?x=1&y=$(touch pwned);echo `id`';
      assert.equal(await open(tricky), true);
      assert.deepEqual(fake.calls(), [[tricky]]);
      assert.ok(!existsSync(join(process.cwd(), 'pwned')), 'no shell ran the URL');
    });

    it('reports failure when the opener fails or is missing', async () => {
      const failing = fakeOpener(3);
      assert.equal(await systemOpener({ platform: 'linux', env: { PATH: failing.binDir } })('https://example.org/'), false);
      assert.equal(await systemOpener({ platform: 'linux', env: { PATH: mkdtempSync(join(tmpdir(), 'opendev-empty-')) } })('https://example.org/'), false);
    });
  });
});
