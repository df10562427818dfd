import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { configurePackageDownloads, packagePath, type DownloadNotice } from '../../../../src/core/packages/package-loader';
import { packagePin } from '../../../../src/core/packages/package-pins';
import { createBuiltinRegistry } from '../../../../src/core/tools/builtin-tools';
import type { ToolResult } from '../../../../src/core/tools/tool';
import { makePdf } from '../../../helpers/pdf';
import { toolContext } from '../../../helpers/tool-context';

/**
 * The extension leaves unpdf and playwright-core out of its .vsix and downloads them on first use,
 * pinned to package-lock.json. Here the download is real: the registry's own unpdf tarball (npm
 * pack, from npm's cache) served on 127.0.0.1, and read_pdf reading a PDF with what came down.
 */

const repo = join(__dirname, '../../../../..');
const load = <T>(module: string) => import(pathToFileURL(join(repo, 'scripts', module)).href) as Promise<T>;

interface LocalRegistry {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

describe('libraries downloaded on first use (the extension)', function () {
  // npm pack may have to fetch the tarball when npm's cache lacks it.
  this.timeout(120_000);
  const pin = packagePin('unpdf')!;
  const tarballPath = `unpdf/-/unpdf-${pin.version}.tgz`;
  const registry = createBuiltinRegistry();
  let tarball: Buffer;
  let workspace: string;
  const scratch: string[] = [];
  const fresh = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    scratch.push(dir);
    return dir;
  };
  const readPdf = (): Promise<ToolResult> => registry.execute({ id: 'c1', name: 'read_pdf', arguments: JSON.stringify({ path: 'doc.pdf' }) }, toolContext({ workspaceRoot: workspace }));
  const serve = async (body: Buffer, port = 0): Promise<LocalRegistry> =>
    (await load<{ serveTarballs(t: Record<string, Buffer>, o: { port: number }): Promise<LocalRegistry> }>('package/local-registry.mjs')).serveTarballs({ [tarballPath]: body }, { port });
  /** Configures downloads as the extension does, with a folder of its own that holds no copy. */
  const extension = (registryUrl: string, storageDir = fresh('opendev-storage-'), ownRoot = fresh('opendev-extension-')) => {
    const notices: DownloadNotice[] = [];
    configurePackageDownloads({ storageDir, ownRoot, registry: registryUrl, onDownload: (notice) => notices.push(notice) });
    return { storageDir, notices };
  };
  const downloaded = (storageDir: string) => (existsSync(join(storageDir, 'packages')) ? readdirSync(join(storageDir, 'packages')) : []);

  before(async () => {
    assert.ok(pin, 'the build pins unpdf (OPENDEV_PACKAGE_PINS from package-lock.json)');
    const { registryTarball } = await load<{ registryTarball(root: string, name: string, version: string): string }>('package/native-packages.mjs');
    tarball = readFileSync(registryTarball(repo, 'unpdf', pin.version));
    workspace = fresh('opendev-pdf-');
    writeFileSync(join(workspace, 'doc.pdf'), await makePdf({ pages: [['Downloaded on first use']] }));
  });
  afterEach(() => configurePackageDownloads(undefined));
  after(() => {
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  });

  it('downloads the pinned unpdf once, says so while it does, and read_pdf works from the download', async () => {
    const server = await serve(tarball);
    try {
      const { storageDir, notices } = extension(server.url);
      const r = await readPdf();
      assert.equal(r.ok, true, r.output);
      assert.match(r.output, /Downloaded on first use/);
      assert.deepEqual(server.requests, [tarballPath]);
      assert.deepEqual(
        notices.map((n) => n.text),
        [`Downloading unpdf ${pin.version} for read_pdf from ${server.url} (once: it is kept for later sessions)…`],
      );
      assert.deepEqual(downloaded(storageDir), [`unpdf@${pin.version}`]);
      // read_pdf's worker loads unpdf from this path.
      assert.ok(
        (await packagePath('unpdf')).startsWith(join(storageDir, 'packages', `unpdf@${pin.version}`, 'node_modules', 'unpdf')),
        'unpdf was loaded from the download, not from the repository',
      );

      // A later session (the loader starts afresh) finds it there: no second download, nothing said.
      const again = extension(server.url, storageDir);
      assert.equal((await readPdf()).ok, true);
      assert.deepEqual(server.requests, [tarballPath]);
      assert.deepEqual(again.notices, []);
    } finally {
      await server.close();
    }
  });

  it('clears what a download killed mid-way left behind, not what another window is downloading now', async () => {
    const server = await serve(tarball);
    try {
      const storageDir = fresh('opendev-storage-');
      const abandoned = join(storageDir, 'packages', '.download-killed');
      const running = join(storageDir, 'packages', '.download-running');
      for (const dir of [abandoned, running]) mkdirSync(join(dir, 'node_modules'), { recursive: true });
      const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
      utimesSync(abandoned, twoHoursAgo, twoHoursAgo);
      extension(server.url, storageDir);
      assert.equal((await readPdf()).ok, true);
      assert.deepEqual(downloaded(storageDir).sort(), ['.download-running', `unpdf@${pin.version}`]);
    } finally {
      await server.close();
    }
  });

  it('refuses a tarball whose sha512 is not the pinned one, and keeps nothing of it', async () => {
    const tampered = Buffer.from(tarball);
    tampered[tampered.length - 20]! ^= 0xff;
    const server = await serve(tampered);
    try {
      const { storageDir } = extension(server.url);
      const r = await readPdf();
      assert.equal(r.ok, false);
      assert.match(r.output, new RegExp(`unpdf ${pin.version.replace(/\./g, '\\.')} as downloaded from ${server.url} is not the one OpenDev pins \\(its sha512 is sha512-\\S+, expected ${pin.integrity.replace(/[+/]/g, '\\$&')}\\), so it was discarded unused`));
      assert.deepEqual(server.requests, [tarballPath]);
      assert.deepEqual(downloaded(storageDir), [], 'nothing unpacked, nothing kept');
    } finally {
      await server.close();
    }
  });

  it('offline: read_pdf says what it needs, where from, and why it could not get it', async () => {
    const server = await serve(tarball);
    const url = server.url;
    await server.close(); // nothing listens there now
    const { storageDir } = extension(url);
    const r = await readPdf();
    assert.equal(r.ok, false);
    assert.match(r.output, new RegExp(`read_pdf needs unpdf ${pin.version.replace(/\./g, '\\.')}, which OpenDev downloads from ${url} the first time it is used, and the download failed \\(fetch failed: ECONNREFUSED\\)\\. Tell the user`));
    assert.deepEqual(downloaded(storageDir), []);

    // Back online at the same address, the next use downloads it: a failure is not remembered.
    const online = await serve(tarball, Number(new URL(url).port));
    try {
      assert.equal((await readPdf()).ok, true);
      assert.deepEqual(online.requests, [tarballPath]);
      assert.deepEqual(downloaded(storageDir), [`unpdf@${pin.version}`]);
    } finally {
      await online.close();
    }
  });

  it("a copy in the extension's own folder (a development checkout) is used as is", async () => {
    const server = await serve(tarball);
    try {
      const { storageDir, notices } = extension(server.url, fresh('opendev-storage-'), repo);
      assert.equal((await readPdf()).ok, true);
      assert.deepEqual(server.requests, []);
      assert.deepEqual(notices, []);
      assert.deepEqual(downloaded(storageDir), []);
    } finally {
      await server.close();
    }
  });
});
