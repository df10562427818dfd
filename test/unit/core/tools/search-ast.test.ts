import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadAstRuntime } from '../../../../src/core/syntax/ast-langs';
import { searchTools } from '../../../../src/core/tools/search-tools';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { ToolExecutionContext, ToolResult } from '../../../../src/core/tools/tool';
import { toolContext } from '../../../helpers/tool-context';
import { shownLines } from './search-helpers';

const FILES: Record<string, string> = {
  'web/app.ts': [
    "import { log } from './log';",
    'export function greet(user: { name: string }): void {',
    '  console.log(user.name);',
    "  console.log('two', 'args');",
    '  logger.info(user);',
    '}',
    "// console.log(in a comment)",
    "const text = 'console.log(in a string)';",
  ].join('\n'),
  'web/view.tsx': 'export const View = () => {\n  console.log("render");\n  return <div>{title}</div>;\n};\n',
  'web/legacy.js': "function run() {\n  console.log(process.argv);\n  console.log(\n    'multi',\n    'line',\n    'call',\n  );\n}\n",
  'py/tool.py': 'import os\n\ndef greet(name, greeting="hi"):\n    return f"{greeting} {name}"\n\nclass Greeter:\n    def method(self, *args):\n        print(args)\n',
  'go/main.go': 'package main\n\nimport "fmt"\n\nfunc main() {\n\tname := "go"\n\tfmt.Println("hello", name)\n\tfmt.Printf("%s\\n", name)\n}\n',
  'rust/lib.rs': 'fn parse(s: &str) -> i32 {\n    let n = s.parse::<i32>().unwrap();\n    let m = Some(2).unwrap();\n    n + m\n}\n',
  'java/Main.java': 'public class Main {\n  public static void main(String[] args) {\n    System.out.println("hi");\n    System.err.println("err");\n  }\n}\n',
  'c/main.c': '#include <stdio.h>\n\nint main(void) {\n  int n = 3;\n  printf("%d\\n", n);\n  puts("done");\n  return 0;\n}\n',
  'cpp/main.cpp': '#include <memory>\n#include <iostream>\n\nint main() {\n  auto p = std::make_unique<int>(3);\n  auto q = std::make_unique<Widget>(1, 2);\n  std::cout << *p << std::endl;\n  return 0;\n}\n',
  'notes/readme.txt': 'console.log(not code)\n',
};

describe('search (type "ast")', () => {
  let root: string;
  const registry = new ToolRegistry();
  for (const tool of searchTools()) registry.register(tool);
  const run = (args: unknown, ctx: Partial<ToolExecutionContext> = {}): Promise<ToolResult> =>
    registry.execute({ id: 'c1', name: 'search', arguments: JSON.stringify(args) }, toolContext({ workspaceRoot: root, ...ctx }));
  const matchLines = (r: ToolResult): string[] => shownLines(r.output).filter((l) => l.endsWith(':'));

  before(function () {
    const loaded = loadAstRuntime();
    assert.ok(!('error' in loaded), `@ast-grep/napi loads here: ${'error' in loaded ? loaded.error : ''}`);
    assert.deepEqual([...loaded.unavailable.keys()], [], 'every grammar package loads');
    root = mkdtempSync(join(tmpdir(), 'opendev-ast-'));
    for (const [rel, text] of Object.entries(FILES)) {
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      writeFileSync(join(root, rel), text);
    }
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('TypeScript: console.log($A) matches single-argument calls only, not comments or strings; .tsx is searched too', async () => {
    const r = await run({ pattern: 'console.log($A)', type: 'ast', lang: 'typescript' });
    assert.equal(r.ok, true, r.output);
    assert.deepEqual(matchLines(r), ['web/app.ts:3:', 'web/view.tsx:2:']);
    assert.match(r.output, /^3: console\.log\(user\.name\)$/m);
    assert.equal(r.summary, '✓ 2 matches in 2 files');
    const many = await run({ pattern: 'console.log($$$ARGS)', type: 'ast', lang: 'ts', path: 'web/app.ts' });
    assert.deepEqual(matchLines(many), ['web/app.ts:3:', 'web/app.ts:4:']);
  });

  it('JavaScript: multi-line matches show their first lines and how many more', async () => {
    const r = await run({ pattern: 'console.log($$$A)', type: 'ast', lang: 'javascript' });
    assert.deepEqual(shownLines(r.output), ['web/legacy.js:2:', 'web/legacy.js:3:', 'web/legacy.js:4|', 'web/legacy.js:5|']);
    assert.match(r.output, /^5\|\s+'line',\s+… \(\+2 more lines\)$/m);
    assert.equal(r.summary, '✓ 2 matches in 1 file');
  });

  it('Python: def $F($$$ARGS) finds functions and methods', async () => {
    const r = await run({ pattern: 'def $F($$$ARGS)', type: 'ast', lang: 'python' });
    assert.equal(r.ok, true, r.output);
    assert.deepEqual(shownLines(r.output), ['py/tool.py:3:', 'py/tool.py:4|', 'py/tool.py:7:', 'py/tool.py:8|']);
    assert.match(r.output, /^3: def greet\(name, greeting="hi"\):$/m);
    assert.equal(r.summary, '✓ 2 matches in 1 file');
  });

  it('Go: fmt.Println($$$A) matches the call inside a function', async () => {
    const r = await run({ pattern: 'fmt.Println($$$A)', type: 'ast', lang: 'go' });
    assert.equal(r.ok, true, r.output);
    assert.deepEqual(matchLines(r), ['go/main.go:7:']);
    assert.match(r.output, /7: fmt\.Println\("hello", name\)/);
  });

  it('Rust: $X.unwrap()', async () => {
    const r = await run({ pattern: '$X.unwrap()', type: 'ast', lang: 'rust' });
    assert.deepEqual(matchLines(r), ['rust/lib.rs:2:', 'rust/lib.rs:3:']);
  });

  it('Java: System.out.println($A)', async () => {
    const r = await run({ pattern: 'System.out.println($A)', type: 'ast', lang: 'java' });
    assert.deepEqual(matchLines(r), ['java/Main.java:3:']);
  });

  it('C: printf($$$A) matches the call (not read as a macro type)', async () => {
    const r = await run({ pattern: 'printf($$$A)', type: 'ast', lang: 'c' });
    assert.deepEqual(matchLines(r), ['c/main.c:5:']);
  });

  it('C++: std::make_unique<$T>($$$A)', async () => {
    const r = await run({ pattern: 'std::make_unique<$T>($$$A)', type: 'ast', lang: 'cpp' });
    assert.deepEqual(matchLines(r), ['cpp/main.cpp:5:', 'cpp/main.cpp:6:']);
  });

  it('infers the language from the file extension when path is a file, or from a glob', async () => {
    const file = await run({ pattern: 'fmt.Printf($$$A)', type: 'ast', path: 'go/main.go' });
    assert.deepEqual(matchLines(file), ['go/main.go:8:']);
    assert.match(file.output, /\(Go\)/);
    const glob = await run({ pattern: 'print($A)', type: 'ast', glob: '*.py' });
    assert.deepEqual(matchLines(glob), ['py/tool.py:8:']);
  });

  it('needs lang for a folder, and names the supported languages', async () => {
    const r = await run({ pattern: 'console.log($A)', type: 'ast' });
    assert.equal(r.ok, false);
    assert.match(r.output, /needs lang \(one of: typescript, tsx, javascript, python, go, rust, java, c, cpp/);
  });

  it('rejects an unknown language with the supported list', async () => {
    const r = await run({ pattern: 'x', type: 'ast', lang: 'cobol' });
    assert.equal(r.errorKind, 'not_found');
    assert.match(r.output, /Unknown lang "cobol".*Supported: typescript, tsx, javascript, python, go, rust, java, c, cpp, html, css/);
    const file = await run({ pattern: 'x', type: 'ast', path: 'notes/readme.txt' });
    assert.equal(file.errorKind, 'not_found');
    assert.match(file.output, /Cannot tell the language of notes\/readme\.txt.*Pass lang/);
  });

  it('reports an invalid pattern as a syntax error that explains pattern syntax', async () => {
    for (const [pattern, lang] of [['console.log(', 'typescript'], ['def (((', 'python'], ['fmt.Println(', 'go']]) {
      const r = await run({ pattern, type: 'ast', lang });
      assert.equal(r.errorKind, 'syntax', `${lang}: ${pattern}`);
      assert.match(r.output, /is invalid for .*: it is not valid .* code/);
      assert.match(r.output, /\$\$\$NAME for any number of nodes/);
    }
    const two = await run({ pattern: 'a; b', type: 'ast', lang: 'typescript' });
    assert.equal(two.errorKind, 'syntax');
    assert.match(two.output, /Multiple AST nodes/);
  });

  it('does not blame a partial pattern when there was nothing of that language to search', async () => {
    const r = await run({ pattern: 'def $F($$$ARGS)', type: 'ast', lang: 'python', path: 'web' });
    assert.equal(r.ok, true, r.output);
    assert.match(r.output, /does not parse as complete Python code/);
    assert.match(r.output, /No matches .* Searched 0 Python files/);
  });

  it('honours glob and max_results, with the "more" note', async () => {
    const r = await run({ pattern: 'console.log($$$A)', type: 'ast', lang: 'typescript', glob: '*.tsx' });
    assert.deepEqual(matchLines(r), ['web/view.tsx:2:']);
    const capped = await run({ pattern: 'console.log($$$A)', type: 'ast', lang: 'typescript', max_results: 1 });
    assert.equal(capped.summary, '✓ 3 matches in 2 files, showing 1');
    assert.match(capped.output, /\[Showing 1 of 3 matches .* 2 more matched\. Narrow the search/);
  });

  it('works without ripgrep too (the built-in walker lists the files)', async () => {
    const saved = process.env.PATH;
    process.env.PATH = '';
    try {
      const r = await run({ pattern: 'console.log($A)', type: 'ast', lang: 'typescript' }, { host: { ripgrepPath: '/nonexistent/rg' } });
      assert.deepEqual(matchLines(r), ['web/app.ts:3:', 'web/view.tsx:2:']);
    } finally {
      process.env.PATH = saved;
    }
  });
});
