import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileTimeTracker, STALE_TOLERANCE_MS, fileTracker } from '../../../../src/core/tools/file-time-tracker';
import { readFileTool } from '../../../../src/core/tools/read-file';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import { ToolError } from '../../../../src/core/tools/tool';
import { toolContext } from '../../../helpers/tool-context';

describe('FileTimeTracker', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-tracker-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('read_file records the read time in the session tracker (ctx.files)', async () => {
    const files = new FileTimeTracker();
    writeFileSync(join(root, 'a.txt'), 'x\n');
    const before = Date.now();
    const r = await new ToolRegistry().register(readFileTool).execute({ id: '1', name: 'read_file', arguments: '{"file_path":"a.txt"}' }, toolContext({ workspaceRoot: root, files }));
    assert.equal(r.ok, true);
    assert.ok(files.lastSeen(join(root, 'a.txt'))! >= before);
    assert.equal(fileTracker(toolContext({ workspaceRoot: root, files })), files);
  });

  it('accepts a file up to 50 ms newer than the read, refuses one newer than that', async () => {
    const tracker = new FileTimeTracker();
    const file = join(root, 'f.txt');
    writeFileSync(file, 'x');
    await assert.rejects(tracker.assertFresh(file, 'f.txt'), (err: ToolError) => err.kind === 'edit_mismatch' && /not been read/.test(err.message));
    tracker.recordRead(file);
    const seen = tracker.lastSeen(file)!;
    utimesSync(file, new Date(seen + STALE_TOLERANCE_MS - 10), new Date(seen + STALE_TOLERANCE_MS - 10));
    await tracker.assertFresh(file, 'f.txt');
    utimesSync(file, new Date(seen + 1000), new Date(seen + 1000));
    await assert.rejects(tracker.assertFresh(file, 'f.txt'), /Read it again first/);
  });

  it('takes the file\'s own mtime when it lies in the future, so reading resolves it', async () => {
    const tracker = new FileTimeTracker();
    const file = join(root, 'future.txt');
    writeFileSync(file, 'x');
    const future = Date.now() + 60_000;
    utimesSync(file, new Date(future), new Date(future));
    tracker.recordRead(file, future);
    await tracker.assertFresh(file, 'future.txt');
  });

  it('gives a subagent its own read times but the same file locks (sharingLocks)', async () => {
    const main = new FileTimeTracker();
    const sub = main.sharingLocks();
    main.recordRead('/x/a');
    assert.equal(sub.lastSeen('/x/a'), undefined);
    let inside = 0;
    let peak = 0;
    const hold = (t: FileTimeTracker) => t.withLock('/x/a', async () => {
      inside++;
      peak = Math.max(peak, inside);
      await new Promise((r) => setTimeout(r, 10));
      inside--;
    });
    await Promise.all([hold(main), hold(sub)]);
    assert.equal(peak, 1);
  });

  it('runs lock holders one at a time, in arrival order, and survives a failing holder', async () => {
    const tracker = new FileTimeTracker();
    const order: string[] = [];
    let inside = 0;
    let most = 0;
    const hold = (name: string, ms: number, fail = false) =>
      tracker.withLock('/x/file', async () => {
        inside++;
        most = Math.max(most, inside);
        order.push(`start ${name}`);
        await new Promise((r) => setTimeout(r, ms));
        order.push(`end ${name}`);
        inside--;
        if (fail) throw new Error('boom');
        return name;
      });
    const results = await Promise.allSettled([hold('a', 30), hold('b', 5, true), hold('c', 1)]);
    assert.equal(most, 1);
    assert.deepEqual(order, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
    // Different files do not wait for each other.
    let parallel = 0;
    let peak = 0;
    await Promise.all(['/x/1', '/x/2'].map((f) => tracker.withLock(f, async () => {
      parallel++;
      peak = Math.max(peak, parallel);
      await new Promise((r) => setTimeout(r, 10));
      parallel--;
    })));
    assert.equal(peak, 2);
  });
});
