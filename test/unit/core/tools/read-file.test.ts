import * as assert from 'node:assert/strict';
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
});
