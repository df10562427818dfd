import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as l10n from '@vscode/l10n';
import type { RetryInfo } from '../../../src/core/ui';
import { StreamRenderer } from '../../../src/terminal-ui/stream-renderer';
import { terminalScreen } from './terminal-screen';

/**
 * The OpenDev terminal's and the CLI's tool and retry lines: the chat's words, one line per call
 * (drawn over in place on a terminal), one line per run of retries.
 */
describe('stream renderer: tool and retry lines', () => {
  let clock = 0;
  let ticks: Array<() => void> = [];
  /** Moves the clock and runs the countdown's ticks, as a second passing would. */
  const pass = (ms: number) => {
    clock += ms;
    for (const tick of ticks) tick();
  };
  const renderer = (tty: boolean) => {
    let out = '';
    const r = new StreamRenderer((t) => (out += t), {
      color: tty,
      ...(tty ? { columns: () => 100 } : {}),
      now: () => clock,
      every: (_ms, tick) => {
        ticks.push(tick);
        return () => (ticks = ticks.filter((t) => t !== tick));
      },
    });
    return { r, out: () => out, screen: () => terminalScreen(out) };
  };
  const retry = (attempt: number, delayMs: number): RetryInfo => ({ attempt, maxAttempts: 6, delayMs, reason: '503 Service Unavailable' });
  beforeEach(() => {
    clock = 0;
    ticks = [];
  });

  describe('on a terminal', () => {
    it('shows what a call is doing, then draws its result over that line', () => {
      const { r, screen, out } = renderer(true);
      r.onTextDelta('Checking.\n');
      r.onToolStart({ id: 'c1', name: 'run_command', args: '{"command":"npm test"}' });
      assert.deepEqual(screen(), ['Checking.', '● Running npm test…']);
      clock += 3200;
      r.onToolEnd({ id: 'c1', name: 'run_command' }, { ok: true, output: '', summary: '✓ exit 0, 40 lines' });
      assert.deepEqual(screen(), ['Checking.', '● Ran npm test · exit 0 · 3.2 s']);
      assert.doesNotMatch(out(), /run_command|\{"command"/, 'neither the tool name nor its JSON');
    });

    it('gives the result its own line when something was printed below the call line', () => {
      const { r, screen } = renderer(true);
      r.onToolStart({ id: 'a', name: 'read_file', args: '{"file_path":"a.ts"}' });
      r.onToolStart({ id: 'b', name: 'read_file', args: '{"file_path":"b.ts"}' });
      r.onToolEnd({ id: 'a', name: 'read_file' }, { ok: true, output: '', summary: '✓ Read a.ts (3 lines, 40 chars)' });
      r.onToolEnd({ id: 'b', name: 'read_file' }, { ok: false, output: '', summary: '✗ not_found: b.ts does not exist. Check the path.' });
      assert.deepEqual(screen(), ['● Reading a.ts…', '● Reading b.ts…', '● Read a.ts · 3 lines', "✗ Couldn't read b.ts — b.ts does not exist"]);
    });

    it('keeps consecutive retries on one line, counting down each second, and takes it away when the answer comes', () => {
      const { r, screen } = renderer(true);
      r.onRetry(retry(1, 2000));
      assert.deepEqual(screen(), ['↻ Provider unavailable — retrying in 2 s (attempt 1 of 6) · 503 Service Unavailable']);
      pass(1000);
      assert.deepEqual(screen(), ['↻ Provider unavailable — retrying in 1 s (attempt 1 of 6) · 503 Service Unavailable']);
      pass(1000);
      assert.deepEqual(screen(), ['↻ Provider unavailable — retrying now (attempt 1 of 6) · 503 Service Unavailable']);
      assert.equal(ticks.length, 0, 'the countdown stops at zero');
      r.onRetry(retry(2, 4000));
      assert.deepEqual(screen(), ['↻ Provider unavailable — retrying in 4 s (attempt 2 of 6) · 503 Service Unavailable']);
      r.onTextDelta('Here it is.\n');
      assert.deepEqual(screen(), ['Here it is.']);
      assert.equal(ticks.length, 0, 'no countdown left running');
    });
  });

  describe('in a pipe', () => {
    it('prints one line per call when it ends, with no escapes', () => {
      const { r, out } = renderer(false);
      r.onToolStart({ id: 'c1', name: 'read_file', args: '{"file_path":"math.ts"}' });
      assert.equal(out(), '');
      r.onToolEnd({ id: 'c1', name: 'read_file' }, { ok: true, output: '', summary: '✓ Read math.ts (12 lines, 340 chars)' });
      r.onToolStart({ id: 'c2', name: 'edit_file', args: '{"file_path":"math.ts"}' });
      r.onToolEnd({ id: 'c2', name: 'edit_file' }, { ok: true, output: '', summary: '✓ Edited math.ts (+3 −1)' });
      assert.equal(out(), '● Read math.ts · 12 lines\n● Edited math.ts · +3 −1\n');
    });

    it('prints one line for a run of retries, and another for the next run', () => {
      const { r, out } = renderer(false);
      r.onRetry(retry(1, 2000));
      r.onRetry(retry(2, 4000));
      r.onRetry(retry(3, 8000));
      r.onTextDelta('Answered.\n');
      r.onRetry(retry(1, 1000));
      assert.equal(
        out(),
        [
          '↻ Provider unavailable — retrying in 2 s (attempt 1 of 6) · 503 Service Unavailable',
          'Answered.',
          '↻ Provider unavailable — retrying in 1 s (attempt 1 of 6) · 503 Service Unavailable',
          '',
        ].join('\n'),
      );
      assert.equal(ticks.length, 0, 'nothing ticks in a pipe');
    });
  });

  describe('in Simplified Chinese', () => {
    const zhCn = JSON.parse(readFileSync(join(__dirname, '../../../../l10n/bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;
    before(() => l10n.config({ contents: zhCn }));
    after(() => l10n.config({ contents: {} }));

    it('says the tool and retry lines in the display language', () => {
      const { r, screen } = renderer(true);
      r.onToolStart({ id: 'c1', name: 'run_command', args: '{"command":"npm test"}' });
      clock += 3200;
      r.onToolEnd({ id: 'c1', name: 'run_command' }, { ok: true, output: '', summary: '✓ exit 0, 40 lines' });
      r.onRetry(retry(2, 4000));
      assert.deepEqual(screen(), ['● 已运行 npm test · 退出码 0 · 3.2 秒', '↻ 提供商不可用 — 4 秒后重试（第 2 次，共 6 次） · 503 Service Unavailable']);
    });
  });
});
