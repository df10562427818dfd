import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { writeHistoryArchive } from '../../../../../src/core/context/compaction/history-archive';
import { maskObservations, pruneObservations } from '../../../../../src/core/context/compaction/observation-stages';
import type { Message } from '../../../../../src/core/messages';
import { workHistory } from './work-history';

describe('the history archive of a full compaction', () => {
  const dir = () => join(mkdtempSync(join(tmpdir(), 'opendev-archive-')), 'scratch', 'session1');

  it('holds every message, every tool call and every output, in order', async () => {
    const history = workHistory();
    const path = await writeHistoryArchive(dir(), history, { trigger: 'auto', sessionId: 'session1', agentName: 'main' });
    assert.match(basename(path), /^compaction-1-\d{8}T\d{6}Z\.md$/);
    const text = readFileSync(path, 'utf8');
    let at = 0;
    for (const m of history) {
      if (m.content) {
        const found = text.indexOf(m.content, at);
        assert.ok(found >= at, `message in order: ${m.content.slice(0, 40)}`);
        at = found;
      }
      if (m.role === 'assistant') for (const c of m.toolCalls) assert.ok(text.includes(c.arguments), c.arguments);
    }
    assert.match(text, /## \[24\] assistant/);
    assert.match(text, /tool result: run_command \(c2\) — error/);
  });

  it('archives the original output of results that masking and pruning had reduced', async () => {
    const history = workHistory();
    const original = (history[2] as Extract<Message, { role: 'tool' }>).content;
    maskObservations(history, 2);
    pruneObservations(history, 10);
    assert.ok(!history.some((m) => m.content === original), 'reduced in the history');
    const text = readFileSync(await writeHistoryArchive(dir(), history, { trigger: 'manual' }), 'utf8');
    assert.ok(text.includes(original));
    assert.match(text, /In the context this output had been reduced to: \[pruned\] read_file/);
  });

  it('keeps content with code fences intact and numbers archives on', async () => {
    const folder = dir();
    const tricky: Message[] = [{ role: 'user', content: 'Here:\n```ts\nconst a = 1;\n```\nand ````four````' }];
    const first = await writeHistoryArchive(folder, tricky, { trigger: 'manual' });
    const second = await writeHistoryArchive(folder, tricky, { trigger: 'manual' });
    assert.match(basename(first), /^compaction-1-/);
    assert.match(basename(second), /^compaction-2-/);
    const text = readFileSync(second, 'utf8');
    assert.ok(text.includes(`\`\`\`\`\`\n${tricky[0]!.content}\n\`\`\`\`\``), 'fenced with more backticks than the content has');
  });
});
