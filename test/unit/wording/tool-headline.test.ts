import * as assert from 'node:assert/strict';
import { toolHeadline } from '../../../src/wording/tool-headline';

/** The tool card's header in words: what a person reads, never the tool's name or text for the model. */
describe('tool card headlines', () => {
  const done = (name: string, args: unknown, summary: string, durationMs = 1200, ok = true) =>
    toolHeadline({ name, args: JSON.stringify(args), ended: { ok, summary, durationMs } });

  it('says what is happening while a call runs', () => {
    assert.equal(toolHeadline({ name: 'read_file', args: '{"file_path":"math.ts"}' }), 'Reading math.ts…');
    assert.equal(toolHeadline({ name: 'run_command', args: '{"command":"npm test"}' }), 'Running npm test…');
    assert.equal(toolHeadline({ name: 'search', args: '{"pattern":"foo"}' }), 'Searching for `foo`…');
  });

  it('reads, runs, edits and searches in words, with the numbers that matter', () => {
    assert.equal(done('read_file', { file_path: 'math.ts' }, '✓ Read math.ts (12 lines, 340 chars)'), 'Read math.ts · 12 lines');
    assert.equal(done('run_command', { command: 'npm test' }, '✓ exit 0, 40 lines', 3200), 'Ran npm test · exit 0 · 3.2 s');
    assert.equal(done('run_command', { command: 'echo hi' }, '✓ hi', 80), 'Ran echo hi · exit 0 · 80 ms');
    assert.equal(done('edit_file', { file_path: 'src/a.ts', old_content: 'x', new_content: 'y' }, '✓ Edited src/a.ts (+3 −1)'), 'Edited src/a.ts · +3 −1');
    assert.equal(done('edit_file', { file_path: 'm.ts' }, '✓ Edited m.ts (+1 −1; rejected 1 of 2 hunks)'), 'Edited m.ts · +1 −1 · 1 of 2 changes rejected');
    assert.equal(done('write_file', { file_path: 'b.ts', content: '' }, '✓ Created b.ts (1 line)'), 'Created b.ts · 1 line');
    assert.equal(done('search', { pattern: 'foo' }, '✓ 7 matches in 4 files'), 'Searched for `foo` · 4 files');
    assert.equal(done('search', { pattern: 'zzz' }, '✓ 0 matches'), 'Searched for `zzz` · no matches');
    assert.equal(done('list_files', { path: 'src' }, '✓ Listed src (9 entries)'), 'Listed src · 9 entries');
    assert.equal(done('web_search', { query: 'vite' }, '✓ 5 results for "vite"'), 'Searched the web for `vite` · 5 results');
    assert.equal(done('fetch_url', { url: 'https://example.org/a' }, '✓ 1,200 chars from https://example.org/a'), 'Fetched example.org · 1,200 characters');
  });

  it('a failed call says it failed and why, in one line', () => {
    assert.equal(
      done('read_file', { file_path: 'nope.ts' }, '✗ not_found: nope.ts does not exist. Check the path with list_files.', 5, false),
      "Couldn't read nope.ts — nope.ts does not exist",
    );
    assert.equal(done('run_command', { command: 'npm test' }, '✗ exit 1, 80 lines', 4100, false), 'Ran npm test · exit 1 · 4.1 s');
    assert.equal(done('run_command', { command: 'sleep 99' }, '✗ interrupted by the user', 900, false), 'Ran sleep 99 · stopped by you · 900 ms');
    assert.equal(done('edit_file', { file_path: 'a.ts' }, '✗ edit_mismatch: the old content was not found in a.ts', 5, false), "Couldn't edit a.ts — the old content was not found in a.ts");
  });

  it('a tool without its own wording still reads as words, not as a snake_case name', () => {
    const line = done('find_referencing_symbols', { name_path: 'add' }, '✓ 3 references');
    assert.equal(line, 'Find referencing symbols · 3 references');
    assert.doesNotMatch(line, /_/);
  });

  it('never breaks on odd arguments; long commands are clipped to one line', () => {
    assert.equal(toolHeadline({ name: 'read_file', args: 'not json' }), 'Reading a file…');
    const long = done('run_command', { command: `echo ${'x'.repeat(200)}\nls` }, '✓ exit 0, 2 lines', 10);
    assert.ok(long.length < 120 && !long.includes('\n'), long);
  });
});
