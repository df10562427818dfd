// The writers under OPENDEV_HOME that a CLI session does not reach in the CLI test (private-home.test.ts
// there): the playbook, the models.dev cache, "Always allow" rules, attached images, compaction
// archives, MCP images. Each, on a home it creates itself under the usual umask, leaves nothing that
// group or others may use.
import * as assert from 'node:assert/strict';
import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { writeHistoryArchive } from '../../../../src/core/context/compaction/history-archive';
import { saveAttachedImages } from '../../../../src/core/images/attachment-files';
import { ProviderCache } from '../../../../src/core/llm/capabilities/provider-cache';
import { mapMcpResult } from '../../../../src/core/mcp/mcp-result';
import { PlaybookStore } from '../../../../src/core/memory/playbook/playbook-store';
import { PermissionStore } from '../../../../src/core/safety/permission-store';
import { pngAttachment } from '../../../helpers/png';

/** `<mode> <path>` of every entry under `root`, and of those that group or others may use. */
function entries(root: string): { all: string[]; open: string[] } {
  const all: string[] = [];
  const open: string[] = [];
  const visit = (path: string) => {
    const info = lstatSync(path);
    const line = `${(info.mode & 0o777).toString(8)} ${relative(root, path) || '.'}`;
    all.push(line);
    if (info.mode & 0o077) open.push(line);
    if (info.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  return { all, open };
}

describe('writers under OPENDEV_HOME: private files', () => {
  let root: string;
  let umask: number;

  before(() => (umask = process.umask(0o022)));
  after(() => process.umask(umask));
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'opendev-writers-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('the playbook, the provider cache, permissions, images, archives and MCP media are 0600 in 0700 folders', async () => {
    const home = join(root, 'home');
    const workspace = mkdtempSync(join(root, 'ws-'));
    const scratch = join(home, 'scratch', 'sess1');

    await new PlaybookStore(join(home, 'projects', 'p', 'playbook.json')).ensureExists();
    await new ProviderCache(join(home, 'cache', 'providers')).write({ openai: { id: 'openai', models: {} } }, Date.now());
    const permissions = PermissionStore.load({ home, workspaceRoot: workspace });
    assert.equal(await permissions.remember([{ type: 'prefix', pattern: 'npm test', action: 'allow', workspace }]), undefined);
    await saveAttachedImages(join(scratch, 'images'), [pngAttachment()]);
    await writeHistoryArchive(scratch, [{ role: 'user', content: 'hello' }], { trigger: 'manual', sessionId: 'sess1' });
    const mcp = await mapMcpResult({ content: [{ type: 'image', data: pngAttachment().data, mimeType: 'image/png' }] }, { toolName: 'mcp__s__t', mediaDir: join(scratch, 'mcp') });
    assert.equal(mcp.ok, true, mcp.output);

    const { all, open } = entries(home);
    for (const expected of [/ projects\/p\/playbook\.json$/, / cache\/providers\/openai\.json$/, / permissions\.json$/, / scratch\/sess1\/images\/.+\.png$/, / scratch\/sess1\/compaction-1-.+\.md$/, / scratch\/sess1\/mcp\/.+\.png$/]) {
      assert.ok(all.some((line) => expected.test(line)), `${expected} in ${all.join(', ')}`);
    }
    assert.deepEqual(open, []);
  });
});
