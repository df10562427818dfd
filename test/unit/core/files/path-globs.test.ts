import * as assert from 'node:assert/strict';
import { GitignoreStack, pathGlob, wholePathGlob } from '../../../../src/core/files/path-globs';

describe('glob matcher', () => {
  const cases: Array<[string, string, boolean]> = [
    ['*.ts', 'a.ts', true],
    ['src/*.ts', 'src/dir/a.ts', false],
    ['**/*.ts', 'a.ts', true],
    ['**/*.ts', 'x/y/a.ts', true],
    ['src/**', 'src/a/b', true],
    ['src/**/test/*.ts', 'src/test/a.ts', true],
    ['src/**/test/*.ts', 'src/x/y/test/a.ts', true],
    ['?.md', 'a.md', true],
    ['?.md', 'ab.md', false],
    ['[abc].txt', 'b.txt', true],
    ['[!abc].txt', 'b.txt', false],
    ['*.{js,ts}', 'x.ts', true],
    ['*.{js,ts}', 'x.py', false],
    ['a\\*b', 'a*b', true],
    ['file(1).txt', 'file(1).txt', true],
  ];
  for (const [glob, path, expected] of cases) {
    it(`${glob} ${expected ? 'matches' : 'does not match'} ${path}`, () => assert.equal(pathGlob(glob)(path), expected));
  }
  it('matches names at any depth when the pattern has no "/"', () => {
    assert.equal(pathGlob('*.ts')('a/b/c.ts'), true);
    assert.equal(pathGlob('./src/*.ts')('src/c.ts'), true);
  });
  it('parses .gitignore lines: comments, escapes, trailing spaces', () => {
    const ignore = GitignoreStack.empty.with('# c\n\\#hash\nspace.txt   \n\\!bang\n', '');
    assert.equal(GitignoreStack.empty.with('# only a comment\n\n', ''), GitignoreStack.empty);
    assert.equal(ignore.ignores('#hash', false), true);
    assert.equal(ignore.ignores('space.txt', false), true);
    assert.equal(ignore.ignores('!bang', false), true);
  });
});

/** Where list_files and search each had their own copy before, and differed. */
describe('one glob and .gitignore semantics for list_files and search', () => {
  it('a leading "/" anchors a glob at the root; nested braces expand; [!…] never matches a "/"', () => {
    assert.equal(pathGlob('/dist')('dist'), true);
    assert.equal(pathGlob('/dist')('a/dist'), false);
    assert.equal(pathGlob('dist')('a/dist'), true);
    assert.equal(pathGlob('*.{ts,{js,mjs}}')('lib/x.mjs'), true);
    assert.equal(pathGlob('a[!b]c')('a/c'), false);
  });

  it('a deeper .gitignore overrides a shallower one, and applies only below its folder', () => {
    const stack = GitignoreStack.empty.with('*.log\nx.txt\n', '').with('!keep.log\n', 'sub');
    assert.equal(stack.ignores('keep.log', false), true);
    assert.equal(stack.ignores('sub/keep.log', false), false);
    assert.equal(stack.ignores('sub/other.log', false), true);
    assert.equal(GitignoreStack.empty.with('x.txt\n', 'sub').ignores('x.txt', false), false);
  });

  it('a folder-only rule ignores the folder, not a file of that name; an anchored rule only at its folder', () => {
    const stack = GitignoreStack.empty.with('build/\n/dist\n', '');
    assert.equal(stack.ignores('build', true), true);
    assert.equal(stack.ignores('build', false), false);
    assert.equal(stack.ignores('dist', true), true);
    assert.equal(stack.ignores('a/dist', true), false);
  });
});

describe('whole-path globs (permission rules)', () => {
  it('match the path from the root or an absolute one, never a name at any depth; nocase on request; "!" is literal', () => {
    assert.equal(wholePathGlob('src/**/*.ts')('src/a/b.ts'), true);
    assert.equal(wholePathGlob('*.ts')('src/a.ts'), false);
    assert.equal(wholePathGlob('/home/u/.ssh/*')('/home/u/.ssh/id_rsa'), true);
    assert.equal(wholePathGlob('SRC/*.ts')('src/a.ts'), false);
    assert.equal(wholePathGlob('SRC/*.ts', { nocase: true })('src/a.ts'), true);
    assert.equal(wholePathGlob('!secret/*')('src/a.ts'), false, 'a leading "!" never turns a rule into "everything but"');
    assert.equal(wholePathGlob('!secret/*')('!secret/x'), true);
  });
});
