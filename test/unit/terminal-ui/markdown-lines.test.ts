import * as assert from 'node:assert/strict';
import { MarkdownLines, markdownAnsi } from '../../../src/terminal-ui/markdown-lines';
import { StreamRenderer } from '../../../src/terminal-ui/stream-renderer';

// eslint-disable-next-line no-control-regex
const ESCAPE = /\x1b\[[0-9;]*m/g;
const plain = (text: string) => text.replace(ESCAPE, '');

/** Streams `text` in deltas of `size` characters; returns what was printed after each one. */
function stream(text: string, size: number): { outputs: string[]; all: string } {
  const lines = new MarkdownLines();
  const outputs: string[] = [];
  for (let i = 0; i < text.length; i += size) outputs.push(lines.push(text.slice(i, i + size)));
  outputs.push(lines.flush());
  return { outputs, all: outputs.join('') };
}

const TABLE = ['| Name | Size | Ok |', '|:-----|-----:|:--:|', '| `a.ts` | 1 | **yes** |', '| longer-name | 12345 | no |'].join('\n');

describe('markdown in a colour terminal (MarkdownLines)', () => {
  it('draws a table aligned in a box, once its whole block has arrived', () => {
    const text = `Files:\n${TABLE}\n\nDone.\n`;
    const { outputs, all } = stream(text, 3);
    assert.deepEqual(plain(all).split('\n'), [
      'Files:',
      '┌─────────────┬───────┬─────┐',
      '│ Name        │  Size │ Ok  │',
      '├─────────────┼───────┼─────┤',
      '│ a.ts        │     1 │ yes │',
      '│ longer-name │ 12345 │ no  │',
      '└─────────────┴───────┴─────┘',
      '',
      'Done.',
      '',
    ]);
    // Nothing of the table shows before the line after it: it arrives in one piece.
    const first = outputs.findIndex((o) => o.includes('┌'));
    assert.ok(outputs.slice(first).join('').includes('longer-name'));
    assert.equal(outputs.slice(0, first).join('').includes('Name'), false);
    assert.ok(all.includes('\x1b[36ma.ts\x1b[39m'), 'inline code in a cell is coloured');
    assert.ok(all.includes('\x1b[1myes\x1b[22m'), 'bold in a cell');
  });

  it('prints each line as it completes, styled: headings, bold, code, lists, tasks, quotes, links', () => {
    const lines = new MarkdownLines();
    assert.equal(lines.push('## Plan for **it'), '', 'an unfinished line waits');
    const heading = lines.push('**\n');
    assert.equal(plain(heading), 'Plan for it\n');
    assert.ok(heading.includes('\x1b[1;35m') && heading.includes('\x1b[1m'), 'a heading, with its bold part');
    const rest = lines.push('- one `x`\n  - nested\n1. first\n- [x] done\n- [ ] todo\n> quoted\nsee [docs](https://example.com) and ~~old~~\n');
    assert.deepEqual(plain(rest).split('\n'), ['• one x', '  ◦ nested', '1. first', '☑ done', '☐ todo', '▌ quoted', 'see docs (https://example.com) and old', '']);
    assert.ok(rest.includes('\x1b[36mx\x1b[39m'));
    assert.ok(rest.includes('\x1b[9mold\x1b[29m'));
  });

  it('colours a code block line by line, and does not read markdown inside it', () => {
    const { all } = stream('```ts\nconst a = **b** | c;\n| x | y |\n```\nafter\n', 5);
    assert.deepEqual(plain(all).split('\n'), ['╭─ ts', '│ const a = **b** | c;', '│ | x | y |', '╰─', 'after', '']);
    assert.ok(all.includes('\x1b[36mconst a = **b** | c;\x1b[39m'));
  });

  it('a line with a pipe that starts no table is printed as text when the next line shows it', () => {
    const lines = new MarkdownLines();
    assert.equal(lines.push('use a | b here\n'), '');
    assert.equal(plain(lines.push('and more\n')), 'use a | b here\nand more\n');
    assert.equal(plain(markdownAnsi('x | y')), 'x | y\n', 'held to the end, it still prints');
  });
});

describe('StreamRenderer and markdown', () => {
  const answer = `# Title\n\nSome **bold** and \`code\`.\n\n${TABLE}\n`;

  it('without colour, the answer is printed as written, as it arrives, with no escapes', () => {
    let out = '';
    const r = new StreamRenderer((t) => (out += t), { color: false });
    r.onTextDelta('# Title\n\nSome **bo');
    assert.equal(out, '# Title\n\nSome **bo', 'an unfinished line shows at once');
    r.onTextDelta(answer.slice('# Title\n\nSome **bo'.length));
    assert.equal(out, answer);
    assert.equal(ESCAPE.test(out), false);
  });

  it('with colour, held text (a table, an unfinished line) is drawn before a tool call prints', () => {
    let out = '';
    const r = new StreamRenderer((t) => (out += t), { color: true });
    r.onTextDelta(`Look:\n${TABLE}\nand then`);
    assert.equal(plain(out), 'Look:\n');
    r.onToolStart({ id: 'c1', name: 'read_file', args: '{"path":"a.ts"}' });
    r.onToolEnd({ id: 'c1', name: 'read_file' }, { ok: true, summary: '✓ Read a.ts (3 lines, 40 chars)', output: '' });
    const shown = plain(out).split('\n');
    assert.ok(shown.includes('│ longer-name │ 12345 │ no  │'), shown.join('\n'));
    assert.ok(shown.indexOf('and then') < shown.findIndex((l) => l.startsWith('● Read a.ts · 3 lines')));
    assert.equal(r.streamedText, `Look:\n${TABLE}\nand then`);
  });

  it('with colour and a known width, an unfinished line shows as it arrives and is drawn over, styled, once complete', () => {
    let out = '';
    const r = new StreamRenderer((t) => (out += t), { color: true, columns: () => 10 });
    r.onTextDelta('Use **bold** and more words');
    assert.equal(out, 'Use **bold** and more words', 'shown as written at once');
    r.onTextDelta(' here\nNext');
    // 27 characters on a 10-column terminal took 3 rows: back up 2, clear, draw the styled line.
    assert.equal(out, 'Use **bold** and more words\r\x1b[2A\x1b[J' + 'Use \x1b[1mbold\x1b[22m and more words here\n' + 'Next');
    r.newline();
    assert.ok(out.endsWith('Next\r\x1b[J' + 'Next\n'));
  });
});
