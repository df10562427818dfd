import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError } from '../../../../src/core/tools/tool';
import { pngSize, saveScreenshot, screenshotDestination, SCREENSHOTS_DIR } from '../../../../src/core/web/screenshot-files';

/** A PNG header of the given size (signature, IHDR), then bytes that tell copies apart. */
function fakePng(width: number, height: number, tag: string): Buffer {
  const ihdr = Buffer.alloc(17);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr.subarray(0, 16), Buffer.from(tag)]);
}

describe('screenshot files (shared by capture_web_screenshot and capture_screenshot)', () => {
  let root: string;
  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'opendev-shots-')));
  });

  const refusal = (given: string): ToolError => {
    try {
      screenshotDestination(root, given, 'site');
    } catch (err) {
      assert.ok(err instanceof ToolError);
      return err;
    }
    assert.fail(`${given} was accepted`);
  };

  it('a given path must be a .png in the workspace, outside .git, .claude and .opendev (except its screenshots folder)', () => {
    assert.deepEqual(screenshotDestination(root, 'shots/a.png', 'site'), { kind: 'given', path: join(root, 'shots', 'a.png') });
    assert.deepEqual(screenshotDestination(root, 'SHOT.PNG', 'site'), { kind: 'given', path: join(root, 'SHOT.PNG') });
    assert.deepEqual(screenshotDestination(root, join(SCREENSHOTS_DIR, 'mine.png'), 'site'), { kind: 'given', path: join(root, SCREENSHOTS_DIR, 'mine.png') });
    for (const path of ['.git/hooks/x.png', '.claude/x.png', '.opendev/settings.png', '.GIT/x.png']) {
      const err = refusal(path);
      assert.equal(err.kind, 'permission', path);
      assert.match(err.message, /which configures the agent or the repository/);
    }
    assert.equal(refusal('../outside.png').kind, 'permission');
    assert.match(refusal('shot.jpg').message, /must end in \.png/);
  });

  it('default names carry the site and the time to the millisecond', () => {
    const d = screenshotDestination(root, undefined, 'docs.example.org', new Date('2026-03-04T05:06:07.089Z'));
    assert.deepEqual(d, { kind: 'default', dir: join(root, SCREENSHOTS_DIR), stem: 'docs.example.org-20260304-050607-089' });
    const odd = screenshotDestination(root, undefined, 'a b/c:d', new Date('2026-03-04T05:06:07.089Z'));
    assert.equal(odd.kind === 'default' && odd.stem, 'a_b_c_d-20260304-050607-089');
  });

  it('captures with the same default name never overwrite each other, even at the same moment', async () => {
    const now = new Date('2026-03-04T05:06:07.089Z');
    const destination = screenshotDestination(root, undefined, '127.0.0.1', now);
    const saved = await Promise.all([1, 2, 3, 4, 5].map((n) => saveScreenshot(root, destination, fakePng(10, 10, `shot ${n}`))));
    const names = readdirSync(join(root, SCREENSHOTS_DIR)).sort();
    assert.deepEqual(names, ['127.0.0.1-20260304-050607-089-2.png', '127.0.0.1-20260304-050607-089-3.png', '127.0.0.1-20260304-050607-089-4.png', '127.0.0.1-20260304-050607-089-5.png', '127.0.0.1-20260304-050607-089.png']);
    const contents = saved.map((s) => readFileSync(s.png).subarray(24).toString());
    assert.deepEqual(contents.sort(), ['shot 1', 'shot 2', 'shot 3', 'shot 4', 'shot 5'], 'each file holds its own capture');
  });

  it('writes the bytes exactly, a PDF beside the PNG, and replaces a given path', async () => {
    const destination = screenshotDestination(root, 'out/page.png', 'site');
    await saveScreenshot(root, destination, fakePng(800, 600, 'old'));
    const png = fakePng(800, 600, 'new');
    const pdf = Buffer.from('%PDF-1.7\n\x00\xff binary');
    const saved = await saveScreenshot(root, destination, png, pdf);
    assert.deepEqual(saved, { png: join(root, 'out', 'page.png'), pdf: join(root, 'out', 'page.pdf') });
    assert.deepEqual(readFileSync(saved.png), png);
    assert.deepEqual(readFileSync(saved.pdf!), pdf);
    assert.deepEqual(pngSize(png), { width: 800, height: 600 });
    assert.deepEqual(readdirSync(join(root, 'out')).sort(), ['page.pdf', 'page.png'], 'no temporary file left behind');
  });

  it('does not write through a folder that is a symbolic link out of the workspace', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'opendev-elsewhere-'));
    symlinkSync(outside, join(root, 'shots'));
    // Refused when the destination is resolved (the link is seen at once), or at the latest when it is written.
    await assert.rejects(async () => saveScreenshot(root, screenshotDestination(root, 'shots/x.png', 'site'), fakePng(1, 1, 'x')), (err: unknown) => err instanceof ToolError && err.kind === 'permission');
    assert.deepEqual(readdirSync(outside), []);
  });
});
