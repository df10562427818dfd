import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readProjectTrust, trustProject, untrustProject } from '../../../../src/core/trust/project-trust';
import { confirmEndpoint, isEndpointConfirmed, readTrust, trustFilePath } from '../../../../src/core/trust/trust-store';

describe('project trust (OPENDEV_HOME/trust.json)', () => {
  let home: string;
  let ws: string;
  const write = (rel: string, text: string) => {
    mkdirSync(join(ws, rel, '..'), { recursive: true });
    writeFileSync(join(ws, rel), text);
  };
  const trustNow = async () => assert.equal(await trustProject({ home, workspaceRoot: ws }, readProjectTrust({ home, workspaceRoot: ws }).fingerprint), undefined);

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'opendev-trust-home-'));
    ws = mkdtempSync(join(tmpdir(), 'opendev-trust-ws-'));
  });

  it('a folder is untrusted until trusted; trust covers the exact content of every configuration file', async () => {
    write('.opendev/settings.json', '{"model":"a"}');
    assert.equal(readProjectTrust({ home, workspaceRoot: ws }).state, 'untrusted');
    await trustNow();
    assert.equal(readProjectTrust({ home, workspaceRoot: ws }).trusted, true);
    assert.equal(statSync(trustFilePath(home)).mode & 0o777, 0o600, 'the record is private');

    write('.opendev/settings.json', '{"model":"b"}');
    let t = readProjectTrust({ home, workspaceRoot: ws });
    assert.deepEqual([t.trusted, t.state, t.changed], [false, 'changed', ['.opendev/settings.json']]);
    write('.opendev/settings.json', '{"model":"a"}');
    assert.equal(readProjectTrust({ home, workspaceRoot: ws }).trusted, true, 'the trusted content again');

    write('.mcp.json', '{"mcpServers":{}}');
    t = readProjectTrust({ home, workspaceRoot: ws });
    assert.deepEqual(t.changed, ['.mcp.json'], 'a file that appears counts as a change');
  });

  it('a host source (VS Code workspace settings) is part of the fingerprint', async () => {
    const extra = { 'VS Code workspace settings': '{"opendev.model":"a"}' };
    await trustProject({ home, workspaceRoot: ws }, readProjectTrust({ home, workspaceRoot: ws, extra }).fingerprint);
    assert.equal(readProjectTrust({ home, workspaceRoot: ws, extra }).trusted, true);
    const changed = readProjectTrust({ home, workspaceRoot: ws, extra: { 'VS Code workspace settings': '{"opendev.baseUrl":"http://x"}' } });
    assert.deepEqual(changed.changed, ['VS Code workspace settings']);
  });

  it('the folder is named by its real path: a link to it is the same folder; untrust forgets it', async () => {
    await trustNow();
    const link = join(mkdtempSync(join(tmpdir(), 'opendev-trust-link-')), 'ws');
    symlinkSync(ws, link);
    assert.equal(readProjectTrust({ home, workspaceRoot: link }).trusted, true);
    await untrustProject({ home, workspaceRoot: link });
    assert.equal(readProjectTrust({ home, workspaceRoot: ws }).trusted, false);
  });

  it('a broken trust file trusts nothing and is never overwritten', async () => {
    writeFileSync(trustFilePath(home), '{ "version": 1, "workspaces": [ { "workspace": 3 } ] }');
    const t = readProjectTrust({ home, workspaceRoot: ws });
    assert.equal(t.trusted, false);
    assert.match(t.problem ?? '', /workspaces/);
    const problem = await trustProject({ home, workspaceRoot: ws }, t.fingerprint);
    assert.match(problem ?? '', /cannot be used/);
    assert.equal(readFileSync(trustFilePath(home), 'utf8'), '{ "version": 1, "workspaces": [ { "workspace": 3 } ] }');
  });

  it('endpoints are confirmed per provider and endpoint, however the URL is spelled', async () => {
    assert.equal(await confirmEndpoint(home, 'openai', 'http://LOCALHOST:8080/v1/'), undefined);
    const read = readTrust(home);
    assert.equal(read.status, 'ok');
    if (read.status !== 'ok') return;
    assert.equal(isEndpointConfirmed(read.data, 'openai', 'http://localhost:8080/v1'), true);
    assert.equal(isEndpointConfirmed(read.data, 'anthropic', 'http://localhost:8080/v1'), false, 'another provider\'s key was not confirmed');
    assert.equal(isEndpointConfirmed(read.data, 'openai', 'http://localhost:8081/v1'), false);
  });
});
