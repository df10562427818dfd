import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { findRipgrep } from '../../../../src/core/process/ripgrep-path';
import { searchTool } from '../../../../src/core/tools/search';
import { searchText } from '../../../../src/core/tools/search/text-search';
import { searchTools } from '../../../../src/core/tools/search-tools';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { ToolExecutionContext, ToolResult } from '../../../../src/core/tools/tool';
import { toolContext } from '../../../helpers/tool-context';
import { shownLines } from './search-helpers';

const endless: string[] = [];
after(() => endless.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
/** A workspace whose `pipe` is a named pipe nobody writes to: reading it never ends. */
function endlessWorkspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'opendev-search-endless-'));
  endless.push(dir);
  const made = spawnSync('mkfifo', [join(dir, 'pipe')]);
  assert.equal(made.status, 0, String(made.stderr));
  return dir;
}

function write(root: string, rel: string, content: string | Buffer): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
}

describe('search (type "text")', () => {
  let root: string;
  const registry = new ToolRegistry();
  for (const tool of searchTools()) registry.register(tool);
  const run = (args: unknown, ctx: Partial<ToolExecutionContext> = {}): Promise<ToolResult> =>
    registry.execute({ id: 'c1', name: 'search', arguments: JSON.stringify(args) }, toolContext({ workspaceRoot: root, ...ctx }));

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-search-'));
    write(root, '.gitignore', 'ignored/\n*.log\n');
    write(
      root,
      'src/cart.ts',
      [
        "import { price } from './price';",
        '',
        '// Cart totals',
        'export function computeTotal(items: number[]): number {',
        '  let sum = 0;',
        '  for (const item of items) sum += price(item);',
        '  return sum;',
        '}',
        '',
        'export const Greeting = "Hello";',
        'export const greeting = "hello";',
        '',
        'export function useTotal() {',
        '  return computeTotal([1, 2, 3]);',
        '}',
      ].join('\n') + '\n',
    );
    write(root, 'src/price.ts', 'export function price(n: number): number {\n  return n * 2; // computeTotal uses this\n}\n');
    write(root, 'src/cart.test.ts', "import { computeTotal } from './cart';\ncomputeTotal([]);\n");
    write(root, 'lib/legacy.js', 'function computeTotal(a) { return a; }\nmodule.exports = { computeTotal };\n');
    write(root, 'ignored/secret.ts', 'export const computeTotal = 1;\n');
    write(root, 'debug.log', 'computeTotal called\n');
    write(root, '.hidden/tool.ts', 'computeTotal();\n');
    write(root, 'data.bin', Buffer.concat([Buffer.from('computeTotal\n'), Buffer.alloc(16), Buffer.from('computeTotal\n')]));
    write(root, 'many.txt', Array.from({ length: 120 }, (_, i) => `needle ${i + 1}`).join('\n') + '\n');
    write(root, 'wide.txt', Array.from({ length: 400 }, (_, i) => `${i % 4 === 0 ? 'wide' : 'fill'} ${'x'.repeat(380)}`).join('\n') + '\n');
    write(root, 'regex.txt', 'call foo(bar) now\nfoobar\nfoo baz\n');
    write(root, 'dist/app.min.js', `${'var a=1;'.repeat(2000)}longNeedle();${'var b=2;'.repeat(2000)}\n${'x'.repeat(1000)}earlyNeedle${'y'.repeat(4000)}\n`);
    write(root, 'crlf.txt', 'first\r\ncrlfNeedle here\r\nlast\r\n');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('shows matches grouped by file with line numbers, match lines marked, context around them', async () => {
    const r = await run({ pattern: 'computeTotal', path: 'src/cart.ts' });
    assert.equal(r.ok, true);
    assert.equal(r.summary, '✓ 2 matches in 1 file');
    assert.match(r.output, /^2 matches in 1 file for \/computeTotal\/ in src\/cart\.ts\./);
    assert.deepEqual(shownLines(r.output), [
      'src/cart.ts:2-', 'src/cart.ts:3-', 'src/cart.ts:4:', 'src/cart.ts:5-', 'src/cart.ts:6-',
      'src/cart.ts:12-', 'src/cart.ts:13-', 'src/cart.ts:14:', 'src/cart.ts:15-',
    ]);
    assert.match(r.output, /^ 4: export function computeTotal\(items: number\[\]\): number \{$/m);
    assert.match(r.output, /^ 3- \/\/ Cart totals$/m);
    assert.match(r.output, /^--$/m, 'non-adjacent blocks are separated');
  });

  it('searches the whole workspace by default, files in path order, and honours context_lines (clamped to 10)', async () => {
    const r = await run({ pattern: 'computeTotal', context_lines: 0 });
    assert.equal(r.summary, '✓ 7 matches in 4 files');
    assert.deepEqual(shownLines(r.output), [
      'lib/legacy.js:1:', 'lib/legacy.js:2:', 'src/cart.test.ts:1:', 'src/cart.test.ts:2:', 'src/cart.ts:4:', 'src/cart.ts:14:', 'src/price.ts:2:',
    ]);
    const wide = await run({ pattern: 'return sum', path: 'src/cart.ts', context_lines: 99 });
    assert.equal(shownLines(wide.output).length, 15, '10 lines before (the file start limits it to 6), 8 after');
  });

  it('skips .gitignore\'d, hidden and binary files', async () => {
    const r = await run({ pattern: 'computeTotal' });
    assert.doesNotMatch(r.output, /ignored\/secret\.ts|debug\.log|\.hidden|data\.bin/);
    const binary = await run({ pattern: 'computeTotal', path: 'data.bin' });
    assert.equal(binary.summary, '✓ 0 matches');
    assert.match(binary.output, /a binary file matched; binary files are not shown/);
  });

  it('filters files with glob: by name anywhere, by workspace-relative path, braces and exclusion', async () => {
    const files = async (glob: string) => [...new Set(shownLines((await run({ pattern: 'computeTotal', glob, context_lines: 0 })).output).map((l) => l.split(':')[0]))];
    assert.deepEqual(await files('*.ts'), ['src/cart.test.ts', 'src/cart.ts', 'src/price.ts']);
    assert.deepEqual(await files('src/**/*.test.ts'), ['src/cart.test.ts']);
    assert.deepEqual(await files('*.{js,mjs}'), ['lib/legacy.js']);
    assert.deepEqual(await files('!*.test.ts'), ['lib/legacy.js', 'src/cart.ts', 'src/price.ts']);
  });

  it('uses smart case by default, and case_sensitive true / false when given', async () => {
    const count = async (args: object) => shownLines((await run({ path: 'src/cart.ts', context_lines: 0, ...args })).output).length;
    assert.equal(await count({ pattern: 'greeting =' }), 2, 'all lower-case: insensitive');
    assert.equal(await count({ pattern: 'Greeting =' }), 1, 'an upper-case letter: sensitive');
    assert.equal(await count({ pattern: 'greeting =', case_sensitive: true }), 1);
    assert.equal(await count({ pattern: 'GREETING =', case_sensitive: false }), 2);
  });

  it('caps at 50 matches (max_results lowers it) and says how many more matched and how to narrow', async () => {
    const r = await run({ pattern: 'needle', path: 'many.txt', context_lines: 0 });
    assert.equal(r.summary, '✓ 120 matches in 1 file, showing 50');
    assert.equal(shownLines(r.output).length, 50);
    assert.match(r.output, /\[Showing 50 of 120 matches \(1 of 1 files\) because of the limit of 50 matches; 70 more matched\. Narrow the search: .*glob/);
    const five = await run({ pattern: 'needle', path: 'many.txt', max_results: 5, context_lines: 0 });
    assert.deepEqual(shownLines(five.output), ['many.txt:1:', 'many.txt:2:', 'many.txt:3:', 'many.txt:4:', 'many.txt:5:']);
    const huge = await run({ pattern: 'needle', path: 'many.txt', max_results: 5000, context_lines: 0 });
    assert.equal(shownLines(huge.output).length, 50, 'max_results above 50 is treated as 50');
  });

  it('caps the output at 30,000 characters and says so', async () => {
    const r = await run({ pattern: '^wide', path: 'wide.txt', context_lines: 3 });
    assert.equal(r.ok, true);
    assert.ok(r.output.length <= 30_000 + 600, `output is ${r.output.length} chars`);
    assert.match(r.output, /because of the 30,000-character output limit; \d+ more matched/);
    assert.match(r.summary, /^✓ 100 matches in 1 file, showing \d+$/);
  });

  it('shows the text around a match on a very long line (minified code), however far in it is', async () => {
    for (const [pattern, line] of [['longNeedle', 1], ['earlyNeedle', 2]] as const) {
      for (const ctx of [{}, { host: { ripgrepPath: '/nonexistent/rg' } }]) {
        const saved = process.env.PATH;
        if ('host' in ctx) process.env.PATH = '';
        try {
          const r = await run({ pattern, context_lines: 0 }, ctx);
          const shown = r.output.split('\n').find((l) => l.startsWith(`${line}: `));
          assert.ok(shown, r.output);
          assert.match(shown, new RegExp(`….*${pattern}.*… \\[(long line cut|line of [\\d,]+ chars cut)\\]$`));
          assert.ok(shown.length < 500, `${shown.length} chars`);
        } finally {
          process.env.PATH = saved;
        }
      }
    }
  });

  it('drops the carriage return of CRLF lines', async () => {
    const r = await run({ pattern: 'crlfNeedle', path: 'crlf.txt' });
    assert.match(r.output, /^1- first$/m);
    assert.match(r.output, /^2: crlfNeedle here$/m);
    assert.doesNotMatch(r.output, /\r/);
  });

  it('turns an invalid regex into a syntax error with the problem and the escaped literal', async () => {
    const r = await run({ pattern: 'foo(bar' });
    assert.equal(r.ok, false);
    assert.equal(r.errorKind, 'syntax');
    assert.match(r.output, /not a valid regular expression/);
    assert.match(r.output, /unclosed group/);
    assert.match(r.output, /escape the special characters with a backslash: foo\\\(bar/);
  });

  it('runs look-around with ripgrep\'s PCRE2 engine when plain regex cannot', async () => {
    const r = await run({ pattern: 'foo(?=bar)', path: 'regex.txt', context_lines: 0 });
    assert.equal(r.ok, true, r.output);
    assert.deepEqual(shownLines(r.output), ['regex.txt:2:']);
    assert.match(r.output, /PCRE2/);
  });

  it('reports an invalid glob as a syntax error', async () => {
    const r = await run({ pattern: 'computeTotal', glob: 'src/[' });
    assert.equal(r.errorKind, 'syntax');
    assert.match(r.output, /The glob "src\/\[" is invalid: .*unclosed character class/);
  });

  it('refuses paths outside the workspace and reports missing ones', async () => {
    const outside = await run({ pattern: 'x', path: '../..' });
    assert.equal(outside.errorKind, 'permission');
    assert.match(outside.output, /outside the workspace/);
    const missing = await run({ pattern: 'x', path: 'nope/here' });
    assert.equal(missing.errorKind, 'not_found');
    assert.match(missing.output, /nope\/here does not exist/);
  });

  it('names a missing pattern, rejects an unknown type and ignores extra properties', async () => {
    const none = await run({ path: 'src' });
    assert.equal(none.ok, false);
    assert.match(none.output, /pattern is required/);
    const badType = await run({ pattern: 'x', type: 'regex' });
    assert.match(badType.output, /type/);
    const extra = await run({ pattern: 'computeTotal', path: 'src/price.ts', bogus: true });
    assert.equal(extra.ok, true);
  });

  it('says clearly when nothing matched', async () => {
    const r = await run({ pattern: 'zzz_nothing_zzz' });
    assert.equal(r.ok, true);
    assert.equal(r.summary, '✓ 0 matches');
    assert.match(r.output, /No matches for \/zzz_nothing_zzz\/ in the workspace\..*\.gitignore/);
  });

  it('stops when the turn is interrupted, before or during the search (ripgrep is killed)', async () => {
    const before = new AbortController();
    before.abort();
    const r = await run({ pattern: 'computeTotal' }, { signal: before.signal });
    assert.equal(r.ok, false);
    assert.match(r.output, /interrupted/);
    // A search that never ends by itself: ripgrep waits for a writer to the pipe forever, so only the interrupt ends it.
    const during = new AbortController();
    setTimeout(() => during.abort(), 20);
    const endless = await searchText({
      workspaceRoot: endlessWorkspace(),
      target: { rel: 'pipe', isFile: true },
      pattern: 'zzz_never_(there|here)_zzz\\w+',
      contextLines: 0,
      caseMode: 'smart',
      maxResults: 50,
      signal: during.signal,
    }).catch((err: Error) => err);
    assert.ok(endless instanceof Error && /interrupted/.test(endless.message), String(endless));
  });

  it('kills ripgrep at the time limit: a typed timeout error when nothing was found yet', async () => {
    await assert.rejects(
      searchText({
        workspaceRoot: endlessWorkspace(),
        target: { rel: 'pipe', isFile: true },
        pattern: 'zzz_never_there_zzz',
        contextLines: 0,
        caseMode: 'smart',
        maxResults: 50,
        signal: new AbortController().signal,
        timeoutMs: 1,
      }),
      (err: Error & { kind?: string }) => err.kind === 'timeout' && /30 s limit/.test(err.message),
    );
  });

  describe('without ripgrep', () => {
    let savedPath: string | undefined;
    const noRg = { host: { ripgrepPath: '/nonexistent/rg' } };
    beforeEach(() => {
      savedPath = process.env.PATH;
      process.env.PATH = '';
    });
    afterEach(() => {
      process.env.PATH = savedPath;
    });

    it('says so and falls back to the built-in search', async () => {
      const r = await run({ pattern: 'computeTotal' }, noRg);
      assert.equal(r.ok, true);
      assert.match(r.output, /ripgrep not found — install it \(apt install ripgrep\) for faster search; used the built-in search/);
      assert.match(r.summary, /built-in search/);
    });

    const queries: object[] = [
      { pattern: 'computeTotal' },
      { pattern: 'computeTotal', context_lines: 0, glob: '*.ts' },
      { pattern: 'computeTotal', glob: '!*.test.ts', context_lines: 4 },
      { pattern: 'greeting =', path: 'src' },
      { pattern: 'Greeting =', path: 'src' },
      { pattern: 'GREETING', case_sensitive: false },
      { pattern: 'needle \\d+', path: 'many.txt', max_results: 7 },
      { pattern: '^wide', context_lines: 1 },
      { pattern: 'foo\\b', path: 'regex.txt' },
    ];
    for (const query of queries) {
      it(`finds what ripgrep finds: ${JSON.stringify(query)}`, async () => {
        process.env.PATH = savedPath;
        const withRg = await run(query);
        process.env.PATH = '';
        const builtin = await run(query, noRg);
        assert.equal(withRg.ok, true);
        assert.equal(builtin.ok, true);
        assert.ok(shownLines(withRg.output).length > 0, 'the query matches something');
        assert.deepEqual(shownLines(builtin.output), shownLines(withRg.output));
        assert.equal(builtin.summary.replace(' (built-in search, no ripgrep)', ''), withRg.summary);
      });
    }

    it('reports an invalid regex as a syntax error too', async () => {
      const r = await run({ pattern: 'foo(bar' }, noRg);
      assert.equal(r.errorKind, 'syntax');
      assert.match(r.output, /foo\\\(bar/);
    });
  });
});

describe('findRipgrep', () => {
  let dir: string;
  let savedPath: string | undefined;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'opendev-rg-'));
    write(dir, 'bin/rg', '#!/bin/sh\n');
    chmodSync(join(dir, 'bin/rg'), 0o755);
    write(dir, 'plain/rg', 'not executable');
    savedPath = process.env.PATH;
  });
  afterEach(() => {
    process.env.PATH = savedPath;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prefers the host\'s executable ripgrep', () => {
    assert.equal(findRipgrep({ ripgrepPath: join(dir, 'bin/rg') }), join(dir, 'bin/rg'));
  });

  it('falls back to rg on PATH, resolved to an absolute path', () => {
    process.env.PATH = `relative/bin:${join(dir, 'plain')}:${join(dir, 'bin')}`;
    assert.equal(findRipgrep({ ripgrepPath: join(dir, 'plain/rg') }), join(dir, 'bin/rg'));
    assert.equal(findRipgrep(), join(dir, 'bin/rg'));
  });

  it('returns undefined when there is none', () => {
    process.env.PATH = '';
    assert.equal(findRipgrep({ ripgrepPath: '/nonexistent/rg' }), undefined);
  });
});

describe('search tool definition', () => {
  it('is read-only, in the search category, and registered by searchTools()', () => {
    assert.deepEqual(searchTools(), [searchTool]);
    assert.equal(searchTool.readOnly, true);
    assert.equal(searchTool.category, 'search');
  });

  it('exposes exactly the documented arguments, with only pattern required, and a template description', () => {
    const [schema] = new ToolRegistry().register(searchTool).schemas();
    const params = schema!.parameters as { required: string[]; properties: Record<string, unknown> };
    assert.deepEqual(params.required, ['pattern']);
    assert.deepEqual(Object.keys(params.properties).sort(), ['case_sensitive', 'context_lines', 'glob', 'lang', 'max_results', 'path', 'pattern', 'type']);
    assert.match(schema!.description, /ast-grep pattern/);
  });
});
