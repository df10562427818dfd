import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { splitForCompaction } from '../../../../../src/core/context/compaction/compaction-split';
import { FullCompactor, TAIL_WINDOW_FRACTION, type FullCompactorOptions, type FullCompactionReport } from '../../../../../src/core/context/compaction/full-compaction';
import { preCompactHook } from '../../../../../src/core/context/compaction/pre-compact-hook';
import { type CompactionEvent, StagedCompactor } from '../../../../../src/core/context/compaction/staged-compactor';
import { estimateTokens } from '../../../../../src/core/context/token-estimate';
import { isValidHistory, repairHistory } from '../../../../../src/core/context/validated-messages';
import type { Message } from '../../../../../src/core/messages';
import { readFileTool } from '../../../../../src/core/tools/read-file';
import { FakeProvider } from '../../../../fixtures/fake-provider';
import { toolContext } from '../../../../helpers/tool-context';
import { chatHistory, FOLLOW_UP, TASK, fakeRoles, summariserPrompt, workHistory } from './work-history';

const SUMMARY = '## Goal\nFix the parser tests.\n## Decisions\nPatch the tokenizer.\n## State of the work\nTests pass.\n## Open problems\nNone.\n## Next steps\nUpdate the README.';

describe('full compaction (fake provider, OpenAI wire)', function () {
  this.timeout(60_000);
  const fake = new FakeProvider();
  let root: string;
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    root = mkdtempSync(join(tmpdir(), 'opendev-full-'));
  });

  const compactor = (extra: Partial<FullCompactorOptions> = {}) =>
    new FullCompactor({ roles: fakeRoles(fake), scratchDir: join(root, 'scratch', 's1'), workspaceRoot: root, sessionId: 's1', agentName: 'main', ...extra });
  const compacted = async (c: FullCompactor, history: Message[], trigger: 'auto' | 'manual' = 'auto', instructions?: string): Promise<FullCompactionReport> => {
    const result = await c.run(history, { trigger, ...(instructions ? { instructions } : {}) });
    assert.equal(result.status, 'compacted', JSON.stringify(result));
    return (result as { report: FullCompactionReport }).report;
  };
  const summaryOf = (history: Message[]) => history[1]!.content;

  it('replaces the history with the task, the summary (index, archive path), the latest request and the tail', async () => {
    fake.enqueue({ text: SUMMARY });
    const history = workHistory();
    const before = [...history];
    const report = await compacted(compactor(), history);

    assert.deepEqual(history[0], { role: 'user', content: TASK });
    const summary = summaryOf(history);
    assert.match(summary, /^\[Conversation compacted\] The middle of this conversation \(16 messages\)/);
    assert.ok(summary.includes(SUMMARY));
    assert.match(summary, /## Artifact index\nFiles read: src\/parser\.ts \(×2\), README\.md, docs\/a\.md/);
    assert.match(summary, /Commands run: `npm test` \(×2\)/);
    assert.ok(report.archivePath && summary.includes(report.archivePath));
    assert.deepEqual(history[2], { role: 'user', content: FOLLOW_UP });
    assert.deepEqual(history.slice(3), before.slice(-7), 'the 7 most recent messages stay verbatim');
    assert.deepEqual(report.repairs, []);
    assert.deepEqual(repairHistory(history).repairs, [], 'nothing to repair');
    assert.equal(report.messagesSummarised, 16);
    assert.ok(report.tokensAfter < report.tokensBefore);
    assert.equal(report.fallbackReason, undefined);
  });

  it('asks the compact model with the compaction prompt, tool summaries instead of large outputs, and not the kept tail', async () => {
    fake.enqueue({ text: SUMMARY });
    await compacted(compactor(), workHistory());
    assert.equal(fake.requests.length, 1);
    const body = fake.requests[0]!.body;
    assert.equal(body.model, 'compact-model');
    assert.deepEqual(body.tools ?? [], []);
    const { system, user } = summariserPrompt(body);
    assert.match(system, /at most 800 words/);
    assert.match(system, /## Goal[\s\S]*## Decisions[\s\S]*## State of the work[\s\S]*## Open problems[\s\S]*## Next steps/);
    assert.match(user, /\[tool result read_file\] ✓ Read src\/parser\.ts \(40 lines, 3,000 chars\) \(\d[\d,]* chars, shortened\)/);
    assert.match(user, /\[tool call\] edit_file \{"file_path":"src\/parser\.ts"/);
    assert.match(user, /\[tool result edit_file\] Edited src\/parser\.ts: 1 replacement\./, 'short outputs whole');
    assert.doesNotMatch(user, /UNIQUE-OUTPUT-c1 ends/, 'large outputs are not sent whole');
    assert.doesNotMatch(user, /UNIQUE-OUTPUT-c10/, 'the kept tail is not summarised');
    assert.match(user, new RegExp(`\\[user\\] ${FOLLOW_UP}`));
  });

  it('keeps the compaction call within the compact model window by shortening, then omitting the oldest messages', async () => {
    fake.enqueue({ text: SUMMARY });
    const c = new FullCompactor({ roles: fakeRoles(fake, 8_000), scratchDir: join(root, 'scratch', 's1') });
    const history = chatHistory(60);
    const expected = splitForCompaction(history, { tailTokenBudget: 8_000 * TAIL_WINDOW_FRACTION });
    await compacted(c, history);
    const { system, user } = summariserPrompt(fake.requests[0]!.body);
    assert.ok(estimateTokens([{ role: 'user', content: system + user }]) <= 4_000 + 50, `${(system + user).length} chars`);
    assert.match(user, /\[\d+ earlier messages omitted here to fit the summariser's window; they are in the archive\]/);
    // What precedes the kept tail is summarised (the most recent of it survives the cuts); the tail is not.
    const question = (m: Message | undefined) => /^(Question \d+):/.exec(m?.content ?? '')?.[1];
    const lastSummarised = question(expected.middle.filter((m) => m.role === 'user').at(-1));
    const firstKept = question(expected.tail.find((m) => m.role === 'user'));
    assert.ok(lastSummarised && firstKept);
    assert.ok(user.includes(`[user] ${lastSummarised}:`), 'the most recent summarised messages stay');
    assert.ok(!user.includes(`[user] ${firstKept}:`));
  });

  it('falls back to a one-line-per-message summary when the compact call fails, and says so', async () => {
    fake.enqueue({ failure: { kind: 'status', status: 400 } });
    const history = workHistory();
    const report = await compacted(compactor(), history);
    assert.match(report.fallbackReason ?? '', /the compaction call failed/);
    const summary = summaryOf(history);
    assert.match(summary, /The compact model could not write a summary: the compaction call failed/);
    assert.match(summary, /\[tool call\] edit_file/);
    assert.match(summary, /\[tool result run_command, error\] ✗ exit 1: 3 failing tests/);
    assert.match(summary, /## Artifact index/);
    assert.ok(report.archivePath && summary.includes(report.archivePath));
    assert.ok(isValidHistory(history));
    assert.ok(report.tokensAfter < report.tokensBefore / 2);
  });

  it('falls back as well when the model returns an empty summary', async () => {
    fake.enqueue({ text: '' });
    const report = await compacted(compactor(), workHistory());
    assert.equal(report.fallbackReason, 'the compact model returned an empty summary');
  });

  it('lets the agent read the archive back with read_file (the path in the summary)', async () => {
    fake.enqueue({ text: SUMMARY });
    const history = workHistory();
    await compacted(compactor(), history);
    const path = /archived at `([^`]+)`/.exec(summaryOf(history))?.[1];
    assert.ok(path, summaryOf(history));
    assert.ok(!history.some((m) => m.content.includes('UNIQUE-OUTPUT-c2')), 'the old output left the context');
    const workspace = join(root, 'workspace');
    const read = await readFileTool.run({ file_path: path }, toolContext({ workspaceRoot: workspace, readableDirs: [dirname(dirname(path))] }));
    assert.ok(read.ok);
    assert.match(read.output, /UNIQUE-OUTPUT-c2 begins/);
    assert.match(read.output, /Reading the parser first\./);
  });

  it('updates the previous summary on a second compaction and keeps the earlier artifacts in the index', async () => {
    fake.enqueue({ text: 'FIRST SUMMARY' }, { text: 'SECOND SUMMARY' });
    const c = compactor();
    const history = workHistory();
    await compacted(c, history);
    // More work after the first compaction, none of it touching src/parser.ts.
    for (let i = 0; i < 6; i++) {
      history.push({ role: 'assistant', content: '', toolCalls: [{ id: `n${i}`, name: 'run_command', arguments: JSON.stringify({ command: `npm run step${i}` }) }] });
      history.push({ role: 'tool', toolCallId: `n${i}`, name: 'run_command', content: 'ok', isError: false });
    }
    history.push({ role: 'user', content: 'Now ship it.' });
    const report = await compacted(c, history);
    const { user } = summariserPrompt(fake.requests[1]!.body);
    assert.equal(user.split('<prior-summary>').length, 2, 'the prior summary exactly once');
    assert.match(user, /<prior-summary>\n\[Conversation compacted\][\s\S]*FIRST SUMMARY[\s\S]*<\/prior-summary>/);
    const summary = summaryOf(history);
    assert.match(summary, /SECOND SUMMARY/);
    assert.doesNotMatch(summary, /FIRST SUMMARY/);
    assert.match(summary, /Files read: src\/parser\.ts \(×2\)/, 'reads from before the first compaction');
    assert.match(summary, /`npm test` \(×2\)/);
    assert.match(summary, /`npm run step0`/);
    assert.match(report.archivePath ?? '', /compaction-2-/);
    assert.ok(isValidHistory(history));
  });

  it('says there is nothing to compact in a short conversation, and changes nothing', async () => {
    const history: Message[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello', toolCalls: [] },
    ];
    const result = await compactor().run(history, { trigger: 'manual' });
    assert.equal(result.status, 'skipped');
    assert.equal(history.length, 2);
    assert.equal(fake.requests.length, 0);
  });

  describe('PreCompact hooks (a real shell script)', () => {
    const hookScript = (body: string) => {
      const script = join(root, 'precompact.sh');
      writeFileSync(script, `#!/usr/bin/env bash\n${body}\n`, { mode: 0o755 });
      return { PreCompact: [{ hooks: [{ type: 'command', command: script }] }] };
    };
    const inputs = () =>
      readFileSync(join(root, 'inputs.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    const record = 'cat >> "$OPENDEV_PROJECT_DIR/inputs.jsonl"; echo >> "$OPENDEV_PROJECT_DIR/inputs.jsonl"';

    it('runs with trigger auto, and what it prints reaches the summariser prompt', async () => {
      fake.enqueue({ text: SUMMARY });
      const hooks = hookScript(`${record}\necho "Keep the names of the failing tests."`);
      const report = await compacted(compactor({ beforeCompaction: preCompactHook(hooks, { workspaceRoot: root, sessionId: 's1' }) }), workHistory());
      const [input] = inputs();
      assert.equal(input!.hook_event_name, 'PreCompact');
      assert.equal(input!.trigger, 'auto');
      assert.equal(input!.custom_instructions, '');
      assert.equal(input!.session_id, 's1');
      assert.match(summariserPrompt(fake.requests[0]!.body).user, /<instructions>\nKeep the names of the failing tests\.\n<\/instructions>/);
      assert.equal(report.extraInstructions, true);
    });

    it('runs with trigger manual and the /compact instructions; JSON additionalContext reaches the prompt too', async () => {
      fake.enqueue({ text: SUMMARY });
      const json = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreCompact', additionalContext: 'Mention the README.' } });
      const hooks = hookScript(`${record}\necho '${json}'`);
      await compacted(compactor({ beforeCompaction: preCompactHook(hooks, { workspaceRoot: root, sessionId: 's1' }) }), workHistory(), 'manual', 'focus on the tokenizer');
      const [input] = inputs();
      assert.equal(input!.trigger, 'manual');
      assert.equal(input!.custom_instructions, 'focus on the tokenizer');
      assert.match(summariserPrompt(fake.requests[0]!.body).user, /<instructions>\nfocus on the tokenizer\nMention the README\.\n<\/instructions>/);
    });

    it('a failing hook is a warning and the compaction goes on', async () => {
      fake.enqueue({ text: SUMMARY });
      const warnings: string[] = [];
      const hooks = hookScript('echo "broken" >&2; exit 1');
      const onWarning = (m: string) => warnings.push(m);
      const report = await compacted(compactor({ beforeCompaction: preCompactHook(hooks, { workspaceRoot: root, sessionId: 's1', onWarning }) }), workHistory());
      assert.equal(report.messagesSummarised, 16);
      assert.match(warnings.join('\n'), /PreCompact hook .* failed \(exit 1\): broken/);
    });

    it('exit 2 blocks a manual compaction (nothing changes) but not an automatic one (the window is full)', async () => {
      const hooks = hookScript('echo "not now" >&2; exit 2');
      const warnings: string[] = [];
      const c = compactor({ beforeCompaction: preCompactHook(hooks, { workspaceRoot: root, sessionId: 's1' }), onWarning: (m) => warnings.push(m) });
      const history = workHistory();
      const manual = await c.run(history, { trigger: 'manual' });
      assert.deepEqual(manual, { status: 'skipped', reason: 'A PreCompact hook blocked the compaction: not now' });
      assert.deepEqual(history, workHistory());
      assert.equal(fake.requests.length, 0);

      fake.enqueue({ text: SUMMARY });
      await compacted(c, history, 'auto');
      assert.match(warnings.join('\n'), /asked to block the compaction \(not now\); the context is full, so it ran anyway/);
    });
  });

  describe('the 99% stage of the staged compactor', () => {
    it('brings the pressure of a long conversation under the mask threshold, once per crossing', async () => {
      fake.setResponder(() => ({ text: SUMMARY }));
      const events: CompactionEvent[] = [];
      const full = compactor();
      const staged = new StagedCompactor({ onEvent: (e) => events.push(e), fullCompaction: full.stage });
      const history = chatHistory(40);
      const window = Math.ceil(estimateTokens(history) / 1.0);
      await staged.hook(history, 0, window);
      // Text only: masking and pruning free nothing, so the full compaction does it all.
      assert.deepEqual(events.map((e) => e.stage), ['warn', 'full_compaction']);
      const event = events[1]!;
      assert.ok(event.pressure >= 0.99);
      assert.ok(event.tokensFreed > window * 0.5, JSON.stringify(event));
      assert.match(event.archivePath ?? '', /compaction-1-/);
      assert.ok(staged.pressure! < 0.8, `pressure after: ${staged.pressure}`);
      assert.ok(isValidHistory(history));
      assert.equal(fake.requests.length, 1);

      // The provider still reports a full prompt (say the system prompt is large): not again in this crossing.
      await staged.hook(history, window, window);
      assert.equal(fake.requests.length, 1);
      assert.equal(events.at(-1)!.stage, 'full_compaction_needed');
      // Once the pressure has dropped, a new crossing compacts again.
      await staged.hook(history, Math.floor(window * 0.5), window);
      history.push(...chatHistory(40).slice(1));
      await staged.hook(history, 0, window);
      assert.equal(fake.requests.length, 2);
      assert.equal(events.at(-1)!.stage, 'full_compaction');
    });

    it('reports the fallback through its event when the compact call fails', async () => {
      fake.enqueue({ failure: { kind: 'status', status: 400 } });
      const events: CompactionEvent[] = [];
      const staged = new StagedCompactor({ onEvent: (e) => events.push(e), fullCompaction: compactor().stage });
      const history = chatHistory(40);
      const window = estimateTokens(history);
      await staged.hook(history, 0, window);
      assert.match(events.at(-1)!.fallbackReason ?? '', /the compaction call failed/);
      assert.ok(staged.pressure! < 0.8, `pressure after: ${staged.pressure}`);
    });
  });
});
