import * as assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { searchTools } from '../../../../src/core/tools/search-tools';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { ToolExecutionContext, ToolResult } from '../../../../src/core/tools/tool';
import { toolContext } from '../../../helpers/tool-context';
import { shownLines } from './search-helpers';

/** The zod sources shipped in node_modules: a real TypeScript code base of a few hundred files. */
const ZOD_SRC = join(__dirname, '../../../../../node_modules/zod/src');

/** Ground truth without ripgrep or ast-grep: every line of every file, scanned naively. */
function naiveScan(root: string, regex: RegExp): Map<string, number> {
  const hits = new Map<string, number>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const count = readFileSync(file, 'utf8').split(/\r?\n/).filter((line) => regex.test(line)).length;
    if (count > 0) hits.set(relative(root, file), count);
  }
  return hits;
}

describe('search on a real repository (zod sources, real ripgrep and ast-grep)', function () {
  this.timeout(60_000);
  let root: string;
  const registry = new ToolRegistry();
  for (const tool of searchTools()) registry.register(tool);
  const run = (args: unknown, ctx: Partial<ToolExecutionContext> = {}): Promise<ToolResult> =>
    registry.execute({ id: 'c1', name: 'search', arguments: JSON.stringify(args) }, toolContext({ workspaceRoot: root, ...ctx }));
  const filesOf = (r: ToolResult): string[] => [...new Set(shownLines(r.output).map((l) => l.slice(0, l.lastIndexOf(':', l.length - 2))))].sort();

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-zod-'));
    cpSync(ZOD_SRC, root, { recursive: true });
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('text: finds every definition of datetime()', async () => {
    const expected = [...naiveScan(root, /export function datetime\(/).keys()].sort();
    assert.ok(expected.includes('v4/classic/iso.ts') && expected.length >= 3, `ground truth: ${expected.join(', ')}`);
    const r = await run({ pattern: 'export function datetime\\(', context_lines: 0 });
    assert.equal(r.ok, true, r.output);
    assert.deepEqual(filesOf(r), expected);
    assert.equal(r.summary, `✓ ${expected.length} matches in ${expected.length} files`);
  });

  it('ast: finds the same definitions structurally, and the ZodError class', async () => {
    const text = filesOf(await run({ pattern: 'export function datetime\\(', context_lines: 0 }));
    const r = await run({ pattern: 'export function datetime($$$PARAMS): $RET { $$$BODY }', type: 'ast', lang: 'typescript' });
    assert.equal(r.ok, true, r.output);
    assert.deepEqual(filesOf(r), text);
    const cls = await run({ pattern: 'class ZodError<$T> extends Error { $$$ }', type: 'ast', lang: 'ts' });
    assert.deepEqual(filesOf(cls), ['v3/ZodError.ts']);
    assert.match(cls.output, /export class ZodError<T = any> extends Error \{|class ZodError<T = any> extends Error \{/);
  });

  it('text: counts every match of a common word, shows 50, and ripgrep and the built-in search agree', async () => {
    const truth = naiveScan(root, /safeParse/);
    const total = [...truth.values()].reduce((a, b) => a + b, 0);
    const r = await run({ pattern: 'safeParse', context_lines: 1 });
    assert.equal(r.summary, `✓ ${total.toLocaleString('en-US')} matches in ${truth.size} files, showing 50`);
    assert.equal(shownLines(r.output).filter((l) => l.endsWith(':')).length, 50);
    const saved = process.env.PATH;
    process.env.PATH = '';
    try {
      const builtin = await run({ pattern: 'safeParse', context_lines: 1 }, { host: { ripgrepPath: '/nonexistent/rg' } });
      assert.deepEqual(shownLines(builtin.output), shownLines(r.output));
      assert.match(builtin.output, /ripgrep not found/);
    } finally {
      process.env.PATH = saved;
    }
  });

  it('ast: a call pattern across the code base, capped with the "more" note', async () => {
    const r = await run({ pattern: '$S.safeParse($$$ARGS)', type: 'ast', lang: 'typescript', path: 'v4' });
    assert.equal(r.ok, true, r.output);
    assert.match(r.summary, /^✓ [\d,]+ matches in \d+ files, showing 50$/);
    assert.match(r.output, /more matched\. Narrow the search/);
    // Each match block (its first lines; chained calls start at the receiver) shows the call or says it goes on.
    const blocks = r.output.split(/\n(?=\s*\d+: )|\n--\n|\n\n/).filter((b) => /^\s*\d+: /.test(b));
    assert.equal(blocks.length, 50);
    for (const block of blocks) assert.match(block, /safeParse\(|more lines\)/);
  });
});
