import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileTools } from '../../../../src/core/tools/file-tools';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { ToolResult } from '../../../../src/core/tools/tool';
import { toolContext } from '../../../helpers/tool-context';

describe('list_files', () => {
  let root: string;
  const registry = new ToolRegistry();
  for (const tool of fileTools()) registry.register(tool);
  const list = (args: object = {}): Promise<ToolResult> =>
    registry.execute({ id: 'c', name: 'list_files', arguments: JSON.stringify(args) }, toolContext({ workspaceRoot: root }));
  const put = (path: string, content = '') => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-list-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('shows a tree, folders first and marked with "/", nested two spaces per level', async () => {
    put('src/core/a.ts');
    put('src/b.ts');
    put('README.md');
    const r = await list();
    assert.equal(r.ok, true, r.output);
    assert.equal(r.output, ['Workspace root (5 entries):', 'src/', '  core/', '    a.ts', '  b.ts', 'README.md'].join('\n'));
    assert.equal(r.summary, '✓ Listed . (5 entries)');
  });

  it('leaves out the default ignores: node_modules .git __pycache__ .venv .DS_Store', async () => {
    for (const p of ['node_modules/x/index.js', '.git/HEAD', 'pkg/__pycache__/m.pyc', '.venv/bin/python', '.DS_Store', 'src/.DS_Store', 'keep.py']) put(p);
    const r = await list();
    assert.equal(r.output, ['Workspace root (3 entries):', 'pkg/', 'src/', 'keep.py'].join('\n'));
  });

  it('respects .gitignore at the top and in nested folders: globs, folders only, anchors, negation', async () => {
    put('.gitignore', '# build output\n*.log\nbuild/\n/top-only.txt\n!important.log\n');
    put('app/.gitignore', 'secret.txt\n/local/\n');
    for (const p of ['a.log', 'important.log', 'build/out.js', 'top-only.txt', 'app/top-only.txt', 'app/secret.txt', 'app/x/secret.txt', 'app/local/l.txt', 'app/x/local/kept.txt', 'app/main.ts', 'notbuild/build']) put(p);
    const r = await list();
    const shown = r.output.split('\n').slice(1).map((l) => l.trim());
    for (const gone of ['a.log', 'build/', 'top-only.txt', 'secret.txt', 'local/']) {
      const hits = shown.filter((l) => l === gone);
      if (gone === 'top-only.txt') assert.equal(hits.length, 1, 'app/top-only.txt stays: the rule is anchored to the root');
      else if (gone === 'local/') assert.equal(hits.length, 1, 'app/x/local stays: /local/ is anchored to app/');
      else assert.equal(hits.length, 0, `${gone} should be ignored`);
    }
    assert.ok(shown.includes('important.log'), 'negation re-includes');
    assert.ok(shown.includes('main.ts'));
    assert.ok(shown.includes('build'), 'build/ ignores folders only; notbuild/build is a file');
  });

  it('applies .gitignore files above the listed folder', async () => {
    put('.gitignore', '*.tmp\n');
    put('sub/a.tmp');
    put('sub/a.ts');
    const r = await list({ path: 'sub' });
    assert.equal(r.output, ['sub/ (1 entry):', 'a.ts'].join('\n'));
  });

  it('caps the listing at 500 entries (or max_results) and says how many were left out', async () => {
    for (let i = 0; i < 620; i++) put(`many/f${String(i).padStart(3, '0')}.txt`);
    put('top.txt');
    const r = await list();
    const lines = r.output.split('\n');
    assert.equal(lines.length, 1 + 500 + 1);
    assert.ok(lines.includes('top.txt'), 'breadth first: top-level entries come before deep ones');
    assert.match(lines[lines.length - 1]!, /… 122 more entries omitted \(cap 500\)/);
    const small = await list({ max_results: 10 });
    assert.match(small.output, /… 612 more entries omitted \(cap 10\)/);
    assert.match(small.summary, /622 entries, 10 shown/);
    assert.match((await list({ max_results: 5000 })).output, /cap 500/);
  });

  it('lists glob matches: "/"-less patterns match names at any depth; paths are workspace-relative', async () => {
    put('src/a.ts');
    put('src/deep/b.ts');
    put('src/c.js');
    put('d.ts');
    put('node_modules/m.ts');
    put('.gitignore', 'ignored.ts\n');
    put('src/ignored.ts');
    assert.equal((await list({ pattern: '*.ts' })).output, ['3 paths under . match *.ts:', 'd.ts', 'src/a.ts', 'src/deep/b.ts'].join('\n'));
    assert.equal((await list({ pattern: 'src/*.ts' })).output, ['1 path under . matches src/*.ts:', 'src/a.ts'].join('\n'));
    assert.equal((await list({ path: 'src', pattern: '**/*.{ts,js}' })).output, ['3 paths under src match **/*.{ts,js}:', 'src/a.ts', 'src/c.js', 'src/deep/b.ts'].join('\n'));
    assert.match((await list({ pattern: 'src/*' })).output, /src\/deep\//);
    assert.match((await list({ pattern: '*.py' })).output, /No paths under \. match \*\.py/);
  });

  it('caps glob matches too', async () => {
    for (let i = 0; i < 30; i++) put(`g/${i}.md`);
    const r = await list({ pattern: '*.md', max_results: 20 });
    assert.match(r.output, /… 10 more matches omitted \(cap 20\)/);
  });

  it('gives typed errors for a missing folder, a file, and a path outside the workspace', async () => {
    put('file.txt');
    assert.equal((await list({ path: 'nope' })).errorKind, 'not_found');
    assert.match((await list({ path: 'file.txt' })).output, /is a file, not a folder\. Read it with read_file/);
    assert.equal((await list({ path: '..' })).errorKind, 'permission');
  });

  it('lists an empty folder', async () => {
    mkdirSync(join(root, 'empty'));
    assert.equal((await list({ path: 'empty' })).output, 'empty/ (empty):');
  });
});
