import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { createMainAgent } from '../../../../src/core/agent/create-agent';
import {
  createToolOutputOffloader,
  OFFLOAD_PREVIEW_CHARS,
  OFFLOAD_THRESHOLD_CHARS,
  type ToolOutputOffloadOptions,
} from '../../../../src/core/context/tool-output-offload';
import type { ToolCall } from '../../../../src/core/messages';
import type { Tool, ToolResult } from '../../../../src/core/tools/tool';
import { silentUI } from '../../../../src/core/ui';
import { FakeProvider, lastUserText, toolResults, type RecordedRequest, type ScriptedTurn } from '../../../fixtures/fake-provider';
import { testAgent, type WireFormat } from '../../../helpers/test-agent';

/** Numbered lines, so any cut shows: the 501st character differs from everything before it. */
function bigOutput(chars: number): string {
  let text = '';
  for (let i = 1; text.length < chars; i++) text += `line ${i}: the quick brown fox jumps over the lazy dog\n`;
  return text.slice(0, chars);
}

function result(output: string): ToolResult {
  return { ok: true, output, summary: '✓ exit 0, 1,203 lines' };
}

function call(name = 'run_command', id = 'call_abcdef123456', args: Record<string, unknown> = { command: 'make' }): ToolCall {
  return { id, name, arguments: JSON.stringify(args) };
}

/** The path the message names (the saved file). */
function pathIn(message: string, scratchDir: string): string {
  const escaped = scratchDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}/[^\\s"\\]]+\\.txt`).exec(message);
  assert.ok(match, `the message names a file in ${scratchDir}:\n${message}`);
  return match[0];
}

describe('tool-output offload (the tool-result economy)', () => {
  let home: string;
  let workspace: string;
  let scratchDir: string;
  let options: ToolOutputOffloadOptions;

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'opendev-offload-'));
    workspace = mkdtempSync(join(tmpdir(), 'opendev-offload-ws-'));
    scratchDir = join(home, 'scratch', 'sess1234');
    options = { scratchDir, canDelegate: false };
  });
  afterEach(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  });

  it('keeps an output of exactly 8,000 characters in context and offloads one of 8,001', async () => {
    const shape = createToolOutputOffloader(options);
    const atLimit = result(bigOutput(OFFLOAD_THRESHOLD_CHARS));
    assert.equal(await shape(call(), atLimit), atLimit);
    assert.equal(existsSync(scratchDir), false, 'the scratch folder is created only when needed');

    const over = result(bigOutput(OFFLOAD_THRESHOLD_CHARS + 1));
    const shaped = await shape(call(), over);
    assert.notEqual(shaped.output, over.output);
    assert.equal(readFileSync(pathIn(shaped.output, scratchDir), 'utf8'), over.output);
  });

  it('gives the model a 500-character preview, the path and the total size; the file holds the whole output', async () => {
    const output = bigOutput(50_000);
    const shaped = await createToolOutputOffloader(options)(call(), result(output));
    assert.ok(shaped.output.includes(output.slice(0, OFFLOAD_PREVIEW_CHARS)), 'the first 500 characters are shown');
    assert.ok(!shaped.output.includes(output.slice(0, OFFLOAD_PREVIEW_CHARS + 1)), 'not one character more');
    assert.ok(shaped.output.length < 2_000, `the message is small (${shaped.output.length} chars)`);
    assert.match(shaped.output, /50,000 characters/);
    assert.match(shaped.output, /\b\d{3},?\d* lines/);

    const path = pathIn(shaped.output, scratchDir);
    assert.ok(path.startsWith(`${scratchDir}/run_command-`), `saved as <tool>-<id>.txt in scratch/<session>: ${path}`);
    assert.equal(readFileSync(path, 'utf8'), output);
  });

  it('keeps the summary, the status and the error class as they were', async () => {
    const failed: ToolResult = { ok: false, output: bigOutput(20_000), summary: '✗ exit 2, 400 lines', errorKind: 'other' };
    const shaped = await createToolOutputOffloader(options)(call(), failed);
    assert.equal(shaped.summary, '✗ exit 2, 400 lines');
    assert.equal(shaped.ok, false);
    assert.equal(shaped.errorKind, 'other');
    assert.notEqual(shaped.output, failed.output);
  });

  it('hints at delegating to a Code-Explorer when the agent can spawn subagents, else at reading with offset/max_lines', async () => {
    const delegating = await createToolOutputOffloader({ ...options, canDelegate: true })(call(), result(bigOutput(9_000)));
    const path = pathIn(delegating.output, scratchDir);
    assert.match(delegating.output, /spawn_subagent/);
    assert.match(delegating.output, /Code-Explorer/);
    assert.ok(delegating.output.split(path).length > 2, 'the hint names the file again');

    const reading = await createToolOutputOffloader(options)(call('search', 'call_2'), result(bigOutput(9_000)));
    assert.doesNotMatch(reading.output, /spawn_subagent|Code-Explorer/);
    assert.match(reading.output, /read_file/);
    assert.match(reading.output, /offset/);
    assert.match(reading.output, /max_lines/);
  });

  it('never offloads read_file (its own limits apply; reading a saved output back must not loop), but does a search', async () => {
    const shape = createToolOutputOffloader(options);
    const first = await shape(call(), result(bigOutput(40_000)));
    const saved = pathIn(first.output, scratchDir);

    const large = result(bigOutput(30_000));
    assert.equal(await shape(call('read_file', 'call_r1', { file_path: saved, offset: 1 }), large), large);
    assert.equal(await shape(call('read_file', 'call_r3', { file_path: 'big.log' }), large), large);
    const searched = await shape(call('search', 'call_s1', { pattern: 'x' }), large);
    assert.notEqual(searched.output, large.output);
  });

  it('names files safely and never overwrites one (call ids may repeat)', async () => {
    const shape = createToolOutputOffloader(options);
    const a = await shape(call('mcp__srv/../x y', 'call 1/..'), result(bigOutput(9_000)));
    const b = await shape(call('mcp__srv/../x y', 'call 1/..'), result(bigOutput(9_500)));
    const pa = pathIn(a.output, scratchDir);
    const pb = pathIn(b.output, scratchDir);
    assert.notEqual(pa, pb);
    assert.deepEqual(readdirSync(scratchDir).sort(), [pa, pb].map((p) => p.slice(scratchDir.length + 1)).sort());
    for (const name of readdirSync(scratchDir)) assert.match(name, /^[A-Za-z0-9_-]+\.txt$/);
    assert.equal(readFileSync(pb, 'utf8').length, 9_500);
  });

  it('keeps the output in context when the file cannot be written, cutting only the middle of a huge one', async () => {
    const blocker = join(home, 'not-a-folder');
    writeFileSync(blocker, 'a file where the scratch folder should be');
    const shape = createToolOutputOffloader({ ...options, scratchDir: join(blocker, 'sess1234') });

    const medium = result(bigOutput(20_000));
    assert.equal(await shape(call(), medium), medium, 'a tool-sized output stays whole');

    const huge = bigOutput(100_000);
    const kept = await shape(call(), result(huge));
    assert.ok(kept.output.length < 31_000, `capped (${kept.output.length} chars)`);
    assert.ok(kept.output.startsWith(huge.slice(0, 10_000)), 'its start is kept');
    assert.ok(kept.output.endsWith(huge.slice(-10_000)), 'its end is kept');
    assert.match(kept.output, /70,000 characters omitted/);
    assert.equal(kept.summary, '✓ exit 0, 1,203 lines');
  });
});

/** A tool that prints `chars` characters. */
function printer(chars: number): Tool {
  const schema = z.object({});
  const tool: Tool<typeof schema> = {
    name: 'dump_log',
    category: 'meta',
    readOnly: true,
    schema,
    async run() {
      return { ok: true, output: bigOutput(chars), summary: `✓ dumped ${chars} chars` };
    },
  };
  return tool;
}

for (const wire of ['openai', 'anthropic'] as WireFormat[]) {
  describe(`tool-output offload in a running agent (${wire} wire format, real SDK)`, function () {
    this.timeout(30_000);
    const fake = new FakeProvider();
    before(() => fake.start());
    after(() => fake.stop());
    beforeEach(() => fake.reset());

    it('the next request carries the preview and the path instead of a 50,000-character output', async () => {
      const home = mkdtempSync(join(tmpdir(), 'opendev-offload-agent-'));
      const scratchDir = join(home, 'scratch', 'abcd1234');
      const agent = testAgent({
        wire,
        fake,
        tools: [printer(50_000)],
        shapeResult: createToolOutputOffloader({ scratchDir, canDelegate: false }),
      });
      fake.enqueue({ toolCalls: [{ id: 'call_dump1', name: 'dump_log', arguments: {} }] }, { text: 'The log is long.' });
      await agent.runTurn('dump the log', silentUI);

      const [sent] = toolResults(fake.requests[1]!);
      assert.ok(sent, 'the tool result was sent');
      assert.ok(sent.content.length < 2_000, `the model got ${sent.content.length} chars, not 50,000`);
      assert.ok(sent.content.includes(bigOutput(50_000).slice(0, OFFLOAD_PREVIEW_CHARS)));
      const path = pathIn(sent.content, scratchDir);
      assert.equal(readFileSync(path, 'utf8'), bigOutput(50_000));
      const stored = agent.messages.find((m) => m.role === 'tool');
      assert.equal(stored?.role === 'tool' ? stored.summary : undefined, '✓ dumped 50000 chars', 'the summary stays on the message');
    });
  });
}

describe('tool-output offload wired in createMainAgent', function () {
  this.timeout(30_000);
  const fake = new FakeProvider();
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => fake.reset());

  async function setup() {
    const home = mkdtempSync(join(tmpdir(), 'opendev-offload-main-'));
    const workspace = mkdtempSync(join(tmpdir(), 'opendev-offload-main-ws-'));
    mkdirSync(join(home, 'scratch'));
    // Long lines: even search's 50 matches are over the offload threshold.
    writeFileSync(join(workspace, 'big.log'), Array.from({ length: 2_000 }, (_, i) => `line ${i}: ${'the quick brown fox '.repeat(15)}`).join('\n'));
    const agent = await createMainAgent({
      roles: { action: { provider: 'openai', model: 'fake', apiKey: 'k', baseUrl: fake.openaiBaseUrl } },
      workspaceRoot: workspace,
      home,
      sessionId: 'sess0001',
      thinkingLevel: 'off',
    });
    return { agent, scratchDir: join(home, 'scratch', 'sess0001') };
  }

  /**
   * Answers the agents' action calls by what they last received (a tool result by call id, else the
   * user's text), so side calls of other features (no tools) cannot shift a scripted order.
   */
  function script(turn: (key: string, req: RecordedRequest) => ScriptedTurn | undefined): void {
    fake.setResponder((req) => {
      if (!req.body.tools?.length) return { text: 'Nothing to add.' };
      const [result] = toolResults(req);
      return turn(result ? `tool:${result.toolCallId}` : `user:${lastUserText(req)}`, req) ?? { text: 'Done.' };
    });
  }

  /** What the model was sent as the result of one call. */
  function resultOf(callId: string): string {
    const found = fake.requests.flatMap((r) => toolResults(r)).find((r) => r.toolCallId === callId);
    assert.ok(found, `a request carried the result of ${callId}`);
    return found.content;
  }

  it('the main agent is told to delegate, and can read the saved search output with read_file (not offloaded again)', async () => {
    const { agent, scratchDir } = await setup();
    script((key, req) => {
      if (key === 'user:what is in big.log?') return { toolCalls: [{ id: 'call_read1', name: 'search', arguments: { pattern: 'fox', path: 'big.log' } }] };
      if (key === 'tool:call_read1') {
        const saved = pathIn(toolResults(req)[0]!.content, scratchDir);
        return { toolCalls: [{ id: 'call_read2', name: 'read_file', arguments: { file_path: saved, offset: 1, max_lines: 600 } }] };
      }
      return undefined;
    });
    await agent.runTurn('what is in big.log?', silentUI);
    agent.dispose();

    const first = resultOf('call_read1');
    assert.match(first, /spawn_subagent/);
    assert.match(first, /Code-Explorer/);
    const second = resultOf('call_read2');
    assert.match(second, /^\s+4\t 1: line 0: the quick brown fox/m, `read_file reads the scratch file:\n${second.slice(0, 300)}`);
    assert.ok(second.length > 8_000, 'a read of the scratch file is not offloaded again');
  });

  it('a subagent without spawn_subagent (Code-Explorer) is told to read with offset/max_lines', async () => {
    const { agent, scratchDir } = await setup();
    script((key) => {
      if (key === 'user:summarise big.log with an explorer') {
        return { toolCalls: [{ id: 'call_spawn', name: 'spawn_subagent', arguments: { subagent_type: 'Code-Explorer', task: 'Summarise big.log' } }] };
      }
      if (key.startsWith('user:') && key.includes('Summarise big.log')) return { toolCalls: [{ id: 'call_xread', name: 'search', arguments: { pattern: 'fox', path: 'big.log' } }] };
      if (key === 'tool:call_xread') return { toolCalls: [{ id: 'call_done', name: 'task_complete', arguments: { summary: 'Lines of a fox.', status: 'success' } }] };
      return undefined;
    });
    await agent.runTurn('summarise big.log with an explorer', silentUI);
    agent.dispose();

    const explorerSaw = resultOf('call_xread');
    pathIn(explorerSaw, scratchDir);
    assert.doesNotMatch(explorerSaw, /spawn_subagent/);
    assert.match(explorerSaw, /read_file/);
    assert.match(explorerSaw, /max_lines/);
  });
});
