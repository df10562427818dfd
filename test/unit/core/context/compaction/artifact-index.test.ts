import * as assert from 'node:assert/strict';
import { collectArtifacts, emptyArtifactIndex, MAX_LISTED, mergeArtifacts, renderArtifactIndex } from '../../../../../src/core/context/compaction/artifact-index';
import { deletedPaths } from '../../../../../src/core/context/compaction/shell-deletes';
import type { Message } from '../../../../../src/core/messages';
import { workHistory } from './work-history';

const entries = (m: Map<string, number>) => Object.fromEntries(m);

describe('artifact index', () => {
  it('lists the files read, created, modified and deleted and every command, with counts', () => {
    const index = collectArtifacts(workHistory());
    // ./src/parser.ts and src/parser.ts are one file; the failed read of missing.ts read nothing.
    assert.deepEqual(entries(index.read), { 'src/parser.ts': 2, 'README.md': 1, 'docs/a.md': 1 });
    assert.deepEqual(entries(index.created), { 'test/parser-extra.test.ts': 1 });
    assert.deepEqual(entries(index.modified), { 'src/parser.ts': 1, 'README.md': 1 });
    assert.deepEqual(entries(index.deleted), { 'old-parser.ts': 1, 'legacy/parser.js': 1 });
    // The failed `npm test` counts as run; the batch's lint run too.
    assert.deepEqual(entries(index.commands), { 'npm test': 2, 'rm -f old-parser.ts && git rm -q legacy/parser.js': 1, 'npm run lint': 1 });
  });

  it('renders as a short markdown block the model reads after the summary', () => {
    const text = renderArtifactIndex(collectArtifacts(workHistory()));
    assert.match(text, /^## Artifact index/m);
    assert.match(text, /Files read: src\/parser\.ts \(×2\), README\.md, docs\/a\.md/);
    assert.match(text, /Files created: test\/parser-extra\.test\.ts/);
    assert.match(text, /Files modified: src\/parser\.ts, README\.md/);
    assert.match(text, /Files deleted: old-parser\.ts, legacy\/parser\.js/);
    assert.match(text, /Commands run: `npm test` \(×2\), `rm -f old-parser\.ts && git rm -q legacy\/parser\.js`, `npm run lint`/);
    assert.match(renderArtifactIndex(emptyArtifactIndex()), /Files deleted: none/);
  });

  it('names files relative to the workspace and caps each list', () => {
    const history: Message[] = [{ role: 'user', content: 'read them all' }];
    for (let i = 0; i < MAX_LISTED + 5; i++) {
      history.push({ role: 'assistant', content: '', toolCalls: [{ id: `r${i}`, name: 'read_file', arguments: JSON.stringify({ file_path: `/ws/src/f${i}.ts` }) }] });
      history.push({ role: 'tool', toolCallId: `r${i}`, name: 'read_file', content: 'x', isError: false });
    }
    const index = collectArtifacts(history, emptyArtifactIndex(), '/ws');
    assert.ok(index.read.has('src/f0.ts'));
    assert.match(renderArtifactIndex(index), /… and 5 more \(see the archive\)/);
  });

  it('adds up across compactions', () => {
    const merged = mergeArtifacts(collectArtifacts(workHistory()), collectArtifacts(workHistory()));
    assert.equal(merged.read.get('src/parser.ts'), 4);
    assert.equal(merged.commands.get('npm test'), 4);
  });
});

describe('deleted files in a command line (best effort)', () => {
  const cases: Array<[string, string[]]> = [
    ['rm -rf build dist', ['build', 'dist']],
    ['git rm --cached -q "old file.ts"', ['old file.ts']],
    ['npm test && unlink tmp.txt; rmdir empty', ['tmp.txt', 'empty']],
    ['sudo rm -- -weird-name', ['-weird-name']],
    ['CI=1 rm a.log 2>/dev/null', ['a.log']],
    ['grep rm notes.txt | wc -l', []],
    ['echo rm a', []],
  ];
  for (const [command, expected] of cases) {
    it(command, () => assert.deepEqual(deletedPaths(command), expected));
  }
});
