import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBuiltinRegistry } from '../../../../src/core/tools/builtin-tools';
import type { ToolResult } from '../../../../src/core/tools/tool';
import { toolContext } from '../../../helpers/tool-context';

describe('read_file', () => {
  let root: string;
  const registry = createBuiltinRegistry();
  const read = (args: unknown): Promise<ToolResult> =>
    registry.execute({ id: 'c1', name: 'read_file', arguments: JSON.stringify(args) }, toolContext({ workspaceRoot: root }));

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-read-'));
    writeFileSync(join(root, 'math.ts'), 'export const PI = 3.14;\r\nexport function add(a, b) {\r\n  return a + b;\r\n}\r\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('returns numbered lines and a one-line summary', async () => {
    const r = await read({ file_path: 'math.ts' });
    assert.equal(r.ok, true);
    assert.equal(r.output.split('\n')[0], '     1\texport const PI = 3.14;');
    assert.match(r.output, /^ {5}4\t}$/m);
    assert.doesNotMatch(r.output, /\r/);
    assert.match(r.summary, /^✓ Read math\.ts \(4 lines, [\d,]+ chars\)$/);
  });

  it('pages with offset and max_lines and says how to continue', async () => {
    const r = await read({ file_path: 'math.ts', offset: 2, max_lines: 2 });
    assert.deepEqual(r.output.split('\n').slice(0, 2), ['     2\texport function add(a, b) {', '     3\t  return a + b;']);
    assert.match(r.output, /1 more lines; continue with offset 4/);
  });

  it('refuses paths outside the workspace as a permission error', async () => {
    const r = await read({ file_path: '../../etc/passwd' });
    assert.equal(r.ok, false);
    assert.equal(r.errorKind, 'permission');
    assert.match(r.output, /outside the workspace/);
  });

  it('reports a missing file as not_found with a next step', async () => {
    const r = await read({ file_path: 'nope.ts' });
    assert.equal(r.errorKind, 'not_found');
    assert.match(r.output, /nope\.ts does not exist.*list_files/);
  });

  it('refuses directories and binary files with a reason', async () => {
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    assert.match((await read({ file_path: 'src' })).output, /is a directory.*list_files/);
    assert.match((await read({ file_path: 'logo.png' })).output, /binary file/);
  });

  it('rejects an offset past the end, naming the real length', async () => {
    const r = await read({ file_path: 'math.ts', offset: 99 });
    assert.equal(r.ok, false);
    assert.match(r.output, /offset 99 is past the end of math\.ts, which has 4 lines/);
  });

  it('cuts very long lines and keeps head and tail of huge files', async () => {
    writeFileSync(join(root, 'long.txt'), `${'x'.repeat(5000)}\n`);
    assert.match((await read({ file_path: 'long.txt' })).output, /line cut at 2000 chars/);
    writeFileSync(join(root, 'big.txt'), Array.from({ length: 2000 }, (_, i) => `line ${i} ${'y'.repeat(40)}`).join('\n'));
    const big = await read({ file_path: 'big.txt' });
    assert.match(big.output, /chars omitted/);
    assert.match(big.output, /line 0 /);
    assert.match(big.output, /line 1999 /);
    assert.ok(big.output.length < 21_000);
  });

  it('reads a line window of a file far larger than what it shows, streaming, with the right count and lines', async () => {
    // 40 MB: one long line first (cut, never kept whole), then 400,000 short lines; the window is near the end.
    const lines = Array.from({ length: 400_000 }, (_, i) => `row ${i} ${'z'.repeat(90)}`);
    writeFileSync(join(root, 'huge.log'), `\uFEFF${'w'.repeat(4_000_000)}\r\n${lines.join('\r\n')}\r\n`);
    const r = await read({ file_path: 'huge.log', offset: 399_990, max_lines: 5 });
    assert.equal(r.ok, true);
    assert.deepEqual(r.output.split('\n').slice(0, 5).map((l) => l.split('\t')[1]!.split(' ').slice(0, 2).join(' ')), ['row 399988', 'row 399989', 'row 399990', 'row 399991', 'row 399992']);
    assert.match(r.output, /\(7 more lines; continue with offset 399995\)/, '400,001 lines in all: the long one and the rows');
    const first = await read({ file_path: 'huge.log', max_lines: 1 });
    assert.match(first.output, /^ {5}1\tw{2000}… \[line cut at 2000 chars\]\n/, 'the BOM is not shown, the long line is cut');
  });

  it('refuses a named pipe instead of waiting on it forever', async () => {
    execFileSync('mkfifo', [join(root, 'pipe')]);
    const r = await read({ file_path: 'pipe' });
    assert.equal(r.ok, false);
    assert.match(r.output, /pipe is not a regular file/);
  });
});
