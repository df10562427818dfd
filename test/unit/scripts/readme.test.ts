import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The README is the Marketplace page: what it shows exists, the version it states is the package's,
 * and the package it ships in links to nothing it lacks.
 */

const repo = join(__dirname, '../../../..');
const readme = readFileSync(join(repo, 'README.md'), 'utf8');
const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string; repository?: { url?: string } };
interface PackagedReadme {
  packagedReadme(text: string): string;
  relativeTargets(text: string): string[];
}
const load = () => import(pathToFileURL(join(repo, 'scripts/package/packaged-readme.mjs')).href) as Promise<PackagedReadme>;

describe('the README', () => {
  it('shows the chat with a diff approval, the agent terminal and the MCP view, from files in the repository', async () => {
    const { relativeTargets } = await load();
    const images = relativeTargets(readme).filter((t) => t.endsWith('.png'));
    assert.deepEqual(images, ['docs/screenshots/chat-diff-approval.png', 'docs/screenshots/agent-terminal.png', 'docs/screenshots/mcp-view.png']);
    for (const image of images) {
      assert.ok(existsSync(join(repo, image)), `${image} is in the repository (npm run screenshots after an e2e run)`);
      // A PNG, not a placeholder: the signature and a screen-sized width.
      const png = readFileSync(join(repo, image));
      assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG', image);
      assert.ok(png.readUInt32BE(16) >= 1000, `${image} is a screenshot of the workbench`);
    }
    for (const link of relativeTargets(readme)) assert.ok(existsSync(join(repo, link)), `the README links to ${link}, which exists`);
  });

  it('states the version the package has, and no made-up repository address', () => {
    assert.ok(readme.includes(`**Status: ${manifest.version}.**`), `the README says "Status: ${manifest.version}"`);
    assert.doesNotMatch(JSON.stringify(manifest), /example\.invalid/);
    if (manifest.repository?.url) assert.match(manifest.repository.url, /^https:\/\/(github\.com|gitlab\.com)\//);
  });

  it('as packaged: without the screenshots block, and with the rest of the text as written', async () => {
    const { packagedReadme, relativeTargets } = await load();
    const packaged = packagedReadme(readme);
    assert.deepEqual(relativeTargets(packaged).filter((t) => t.startsWith('docs/screenshots/')), []);
    assert.ok(!packaged.includes('<!-- screenshots -->'));
    assert.ok(packaged.startsWith('# OpenDev for VS Code\n') && packaged.includes('## Test it'), 'the rest is kept');
    // Links of every kind: only the relative ones count.
    assert.deepEqual(relativeTargets('[a](https://x.dev) [b](#run-it) [c](mailto:a@b.c) ![d](docs/a%20b.png "t") [e](<LICENSE>) [f](docs/x.md#part)'), ['docs/a b.png', 'LICENSE', 'docs/x.md']);
  });
});
