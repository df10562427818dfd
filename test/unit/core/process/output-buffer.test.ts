import * as assert from 'node:assert/strict';
import { HeadTailBuffer, LineTail } from '../../../../src/core/process/output-buffer';
import { cleanTerminalText, TerminalTextCleaner } from '../../../../src/core/process/terminal-text';

describe('output buffers', () => {
  it('keeps everything while it fits', () => {
    const b = new HeadTailBuffer(10, 20);
    b.append('hello\n');
    b.append('world');
    assert.equal(b.text(), 'hello\nworld');
    assert.equal(b.lines, 2);
    assert.equal(b.truncated, false);
  });

  it('keeps the head and the tail of huge output, in bounded memory, with a note', () => {
    const b = new HeadTailBuffer(100, 200);
    for (let i = 0; i < 100_000; i++) b.append(`line ${i}\n`);
    const text = b.text();
    assert.ok(text.startsWith('line 0\nline 1\n'));
    assert.ok(text.endsWith('line 99999\n'));
    assert.match(text, /characters omitted: the output had [\d,]+ characters in 100,000 lines/);
    assert.ok(text.length < 100 + 200 + 400);
    assert.equal(b.truncated, true);
  });

  it('LineTail keeps the last lines, cut when very long', () => {
    const t = new LineTail(3, 10);
    t.append('a\nb\nc\nd\n');
    t.append('e-is-a-very-long-line\npartial');
    assert.deepEqual(t.last(3), ['d', 'e-is-a-ver… [line cut]', 'partial']);
    assert.equal(t.totalLines, 6);
  });

  it('cleans terminal output for the model: escapes, CRLF, progress lines', () => {
    assert.equal(cleanTerminalText('\x1b[32mok\x1b[0m\r\nnext\r\n'), 'ok\nnext\n');
    assert.equal(cleanTerminalText('10%\r50%\r100%\ndone'), '100%\ndone');
    assert.equal(cleanTerminalText('\x1b]0;title\x07text'), 'text');
  });

  it('completes an escape sequence or CRLF cut between two chunks', () => {
    const c = new TerminalTextCleaner();
    assert.equal(c.push('red: \x1b[3'), 'red: ');
    assert.equal(c.push('1mX\x1b[0m\r'), 'X');
    assert.equal(c.push('\nend'), '\nend');
    assert.equal(c.flush(), '');
  });
});
