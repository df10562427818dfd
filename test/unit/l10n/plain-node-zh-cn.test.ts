// The plain-Node modules (no `vscode` import, so they cannot call vscode.l10n.t) speak the display
// language once activation hands @vscode/l10n VS Code's bundle: here the real zh-cn bundle of the
// repository, given the way configurePlainL10n gives it. Words, counts and plurals all come from it.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as l10n from '@vscode/l10n';
import { toolHeadline } from '../../../src/wording/tool-headline';

const root = join(__dirname, '../../../..');
const zhCn = JSON.parse(readFileSync(join(root, 'l10n/bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;

describe('plain-Node strings in zh-cn (the tool-card headlines)', () => {
  const done = (name: string, args: unknown, summary: string, durationMs = 1200, ok = true) =>
    toolHeadline({ name, args: JSON.stringify(args), ended: { ok, summary, durationMs } });

  before(() => l10n.config({ contents: zhCn }));
  // Back to English (an empty bundle) for the files mocha runs after this one.
  after(() => l10n.config({ contents: {} }));

  it('words a running and a finished call, with the singular and plural counts, in Chinese', () => {
    assert.equal(toolHeadline({ name: 'read_file', args: '{"file_path":"math.ts"}' }), '正在读取 math.ts…');
    assert.equal(done('read_file', { file_path: 'math.ts' }, '✓ Read math.ts (12 lines, 340 chars)'), '已读取 math.ts · 12 行');
    assert.equal(done('write_file', { file_path: 'b.ts', content: '' }, '✓ Created b.ts (1 line)'), '已创建 b.ts · 1 行');
    assert.equal(done('run_command', { command: 'npm test' }, '✓ exit 0, 40 lines', 3200), '已运行 npm test · 退出码 0 · 3.2 秒');
    assert.equal(done('search', { pattern: 'foo' }, '✓ 7 matches in 4 files'), '已搜索 `foo` · 4 个文件');
    assert.equal(done('list_files', { path: 'src' }, '✓ Listed src (1 entry)'), '已列出 src · 1 个条目');
  });

  it('says a failure in Chinese around the reason the tool gave', () => {
    assert.equal(done('read_file', { file_path: 'nope.ts' }, '✗ not_found: nope.ts does not exist. Check the path.', 5, false), '无法读取 nope.ts — nope.ts does not exist');
    assert.equal(done('run_command', { command: 'sleep 99' }, '✗ interrupted by the user', 900, false), '已运行 sleep 99 · 已由你停止 · 900 毫秒');
  });

  it('speaks English again without a bundle (what an unconfigured @vscode/l10n does)', () => {
    l10n.config({ contents: {} });
    assert.equal(done('read_file', { file_path: 'math.ts' }, '✓ Read math.ts (12 lines, 340 chars)'), 'Read math.ts · 12 lines');
    l10n.config({ contents: zhCn });
  });
});
