import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { asText, deriveTemplateFrontmatter, parseFrontmatter, splitFrontmatter, TEMPLATE_FRONTMATTER_FILE } from '../../../src/core/frontmatter';

const repo = join(__dirname, '../../../..');
const values = (header: string) => {
  const parsed = parseFrontmatter(header);
  assert.ok('values' in parsed, JSON.stringify(parsed));
  return parsed.values;
};
const error = (header: string) => {
  const parsed = parseFrontmatter(header);
  assert.ok('error' in parsed, JSON.stringify(parsed));
  return parsed.error;
};

describe('frontmatter', () => {
  it('reads YAML: numbers, booleans, null, lists in both forms, nested maps, block scalars', () => {
    const header = 'model: 4\nratio: 0.5\ncacheable: true\nempty:\ntools: [a, b]\nlisted:\n  - x\n  - y\nmetadata:\n  author: me\n  tags: [t]\nfolded: >\n  one\n  two\nliteral: |\n  one\n  two';
    assert.deepEqual(values(header), {
      model: 4,
      ratio: 0.5,
      cacheable: true,
      empty: null,
      tools: ['a', 'b'],
      listed: ['x', 'y'],
      metadata: { author: 'me', tags: ['t'] },
      folded: 'one two',
      literal: 'one\ntwo',
    });
    assert.deepEqual(values(''), {});
    assert.deepEqual(values('# only a comment'), {});
  });

  it('takes a plain value with ": " in it or starting with @ or ` as text, as other tools do, and drops its trailing comment', () => {
    assert.deepEqual(values('name: x\ndescription: Use when: the user asks # a note\ntools: [a]'), { name: 'x', description: 'Use when: the user asks', tools: ['a'] });
    assert.deepEqual(values("description: It's: quoted too"), { description: "It's: quoted too" });
    assert.deepEqual(values('description: @reviewer checks `src/`\nmodel: `fast`'), { description: '@reviewer checks `src/`', model: '`fast`' });
    assert.match(error('description: Use when: x\nname: [open'), /^line 2: Flow sequence/, 'the error left once that value is text');
  });

  it('says which line is wrong and how, for invalid YAML', () => {
    assert.equal(error('name: a\nname: b'), 'line 2: "name" is set twice');
    assert.equal(error('name: a\ndescription: "open'), 'line 2: unterminated quoted value for "description"');
    assert.equal(error('name: c\nthis is not yaml'), 'line 2 is not "key: value": this is not yaml');
    assert.equal(error('just a sentence'), 'line 1 is not "key: value": just a sentence');
    assert.equal(error('# comment\n- a\n- b'), 'line 2 is not "key: value": - a');
    assert.match(error('tools: [a, b'), /^line 1: Flow sequence .* end with a \]$/);
    assert.match(error('name: x\n\tdescription: y'), /^line 2: Tabs are not allowed as indentation$/);
    assert.match(error('model: *nowhere'), /alias/i);
  });

  it('asText: a scalar where text is wanted is the text it was written as; a list or a map is refused', () => {
    const text = asText(z.string());
    assert.deepEqual([4, 2.5, true, false, null, 'x'].map((v) => text.parse(v)), ['4', '2.5', 'true', 'false', '', 'x']);
    assert.equal(text.safeParse(['a']).success, false);
    assert.equal(text.safeParse({ a: 1 }).success, false);
    assert.equal(text.optional().parse(undefined), undefined);
  });

  it('splits the header from the body and says when there is no header or it is not closed', () => {
    assert.deepEqual(splitFrontmatter('\uFEFF---\r\nname: x\r\n---\r\nBody\r\n'), { header: 'name: x', body: 'Body\n' });
    assert.match((splitFrontmatter('# Title\n') as { error: string }).error, /missing YAML frontmatter/);
    assert.match((splitFrontmatter('---\nname: x\n') as { error: string }).error, /not closed/);
  });

  it(`dist/${TEMPLATE_FRONTMATTER_FILE} holds every template header, as yaml reads it now`, () => {
    const built = JSON.parse(readFileSync(join(repo, 'dist', TEMPLATE_FRONTMATTER_FILE), 'utf8')) as Record<string, unknown>;
    const now = deriveTemplateFrontmatter(join(repo, 'templates'));
    assert.deepEqual(built, now, 'rebuild (node esbuild.config.mjs) after changing a template');
    // What every run reads before its first request: the prompt's sections, the agents, the skills.
    for (const folder of ['system/main', 'subagents', 'skills']) {
      const files = readdirSync(join(repo, 'templates', folder)).filter((name) => name.endsWith('.md'));
      assert.ok(files.length > 0);
      for (const name of files) {
        const parts = splitFrontmatter(readFileSync(join(repo, 'templates', folder, name), 'utf8'));
        assert.ok('header' in parts && parts.header in built, `templates/${folder}/${name}: its header is read at build time, not by yaml at start-up`);
      }
    }
    for (const [header, fields] of Object.entries(built)) assert.deepEqual(values(header), fields);
  });
});
