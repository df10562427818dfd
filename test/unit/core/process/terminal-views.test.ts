import * as assert from 'node:assert/strict';
import type { CommandView } from '../../../../src/core/host';
import { createStreamTerminalPort } from '../../../../src/core/process/stream-terminal';
import { ViewStream } from '../../../../src/core/process/view-stream';

function recorder() {
  const writes: string[] = [];
  let ended: Parameters<CommandView['end']>[0] | undefined;
  const view: CommandView = { write: (c) => void writes.push(c), end: (o) => void (ended = o) };
  return { view, writes, ended: () => ended };
}

describe('terminal views', () => {
  it('ViewStream batches chunks (100 ms) and flushes before the end', async () => {
    const r = recorder();
    const stream = new ViewStream(r.view, { flushMs: 50 });
    stream.write('a');
    stream.write('b');
    assert.deepEqual(r.writes, []);
    await new Promise((res) => setTimeout(res, 80));
    assert.deepEqual(r.writes, ['ab']);
    stream.write('c');
    stream.end({ exitCode: 0, status: 'completed' });
    assert.deepEqual(r.writes, ['ab', 'c']);
    assert.deepEqual(r.ended(), { exitCode: 0, status: 'completed' });
  });

  it('ViewStream shows the first characters of a flood, a note, and the end', () => {
    const r = recorder();
    const stream = new ViewStream(r.view, { maxChars: 10, tailChars: 5 });
    stream.write('0123456789abcdef');
    for (let i = 0; i < 1000; i++) stream.write('xxxxxxxxxx');
    stream.write('END!!');
    stream.end({ exitCode: 0, status: 'completed' });
    const all = r.writes.join('');
    assert.ok(all.startsWith('0123456789\n[… the terminal shows the first 10 characters'));
    assert.match(all, /\[… 10,006 characters not shown …\]\nEND!!$/);
    assert.ok(all.length < 250);
  });

  it('the stream port (CLI --verbose) writes the command, its output and how it ended', () => {
    let text = '';
    const port = createStreamTerminalPort((t) => void (text += t));
    const view = port.showCommand({ id: '1', command: 'make', cwd: '/w' });
    view.write('building\nno newline');
    view.end({ exitCode: 2, status: 'failed' });
    const task = port.showBackgroundTask({ taskId: 'abc1234', command: 'npm run dev', cwd: '/w' }, () => {});
    task.write('server log lines are not echoed');
    task.end({ exitCode: null, signal: 'SIGTERM', status: 'killed' });
    assert.equal(text, '$ make\nbuilding\nno newline\n[exit 2]\n$ npm run dev   [background task abc1234]\n[background task abc1234: killed]\n');
  });
});
