import * as assert from 'node:assert/strict';
import { insertMention, mentionAt, mentionPath, mentionText, parseMentions } from '../../../src/shared/mention-syntax';

describe('@ mention syntax', () => {
  it('finds paths, quoted paths and the special sources, with their positions', () => {
    const text = 'explain @math.ts and @"docs/a file.md", see @problems';
    const found = parseMentions(text);
    assert.deepEqual(
      found.map((m) => ({ target: m.target, special: m.special, raw: text.slice(m.start, m.end) })),
      [
        { target: 'math.ts', special: undefined, raw: '@math.ts' },
        { target: 'docs/a file.md', special: undefined, raw: '@"docs/a file.md"' },
        { target: 'problems', special: 'problems', raw: '@problems' },
      ],
    );
  });

  it('leaves sentence punctuation out of a path and ignores e-mail addresses and decorators inside words', () => {
    const found = parseMentions('Look at @src/app.ts, then @git. Mail me at dev@example.com (or @terminal)');
    assert.deepEqual(
      found.map((m) => m.target),
      ['src/app.ts', 'git', 'terminal'],
    );
  });

  it('recognises a mention at the start of a line', () => {
    assert.deepEqual(parseMentions('first line\n@src/\nthird').map((m) => m.target), ['src/']);
  });

  it('names a sent path the same way however it was typed', () => {
    assert.equal(mentionPath('./src/a.ts'), 'src/a.ts');
    assert.equal(mentionPath('src\\a.ts'), 'src/a.ts');
    assert.equal(mentionPath('src/'), 'src');
  });

  it('finds the mention being typed at the caret, and nothing once a space follows it', () => {
    assert.deepEqual(mentionAt('explain @ma', 11), { start: 8, query: 'ma' });
    assert.deepEqual(mentionAt('@', 1), { start: 0, query: '' });
    assert.deepEqual(mentionAt('see @"docs/a fi', 15), { start: 4, query: 'docs/a fi' });
    assert.equal(mentionAt('explain @math.ts now', 20), undefined);
    assert.equal(mentionAt('mail dev@exa', 12), undefined);
    assert.equal(mentionAt('no mention here', 5), undefined);
  });

  it('inserts the chosen target in place of the typed query, quoted when it has spaces, with the caret after it', () => {
    assert.deepEqual(insertMention('explain @ma please', 8, 'math.ts'), { text: 'explain @math.ts please', caret: 17 });
    assert.deepEqual(insertMention('@do', 0, 'docs/a file.md'), { text: '@"docs/a file.md" ', caret: 18 });
    assert.equal(mentionText('src'), '@src');
  });
});
