import * as assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeProvider, lastUserText, toolResults } from '../../fixtures/fake-provider';
import type { RecordedRequest, ScriptedTurn } from '../../fixtures/fake-provider';
import { harnessCallOf, scriptedHarness } from '../../fixtures/harness-calls';
import { parseCliArgs, UsageError } from '../../../src/cli/args';
import { jsonLines, newHome, opendev, startCli, workspace } from './cli-harness';

/** The content of the OpenAI `tool` message answering a call id ('' when there is none). */
function toolMessage(req: RecordedRequest, callId: string): string {
  const m = (req.body.messages as Array<{ role: string; tool_call_id?: string; content?: unknown }>).find((x) => x.role === 'tool' && x.tool_call_id === callId);
  return typeof m?.content === 'string' ? m.content : JSON.stringify(m?.content ?? '');
}

describe('opendev CLI', () => {
  const fake = new FakeProvider();
  let home: string;
  const openai = () => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_HOME: home });
  /** The user's settings file (OPENDEV_HOME/settings.json). */
  const userSettings = (settings: Record<string, unknown>) => writeFileSync(join(home, 'settings.json'), JSON.stringify(settings));
  const readMath = (): ScriptedTurn => ({ toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }] });

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    home = newHome();
  });

  describe('-p', () => {
    it('answers through the OpenAI SDK, prints only the answer and exits 0', async () => {
      fake.enqueue({ toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }] }, { text: 'It exports PI, add and subtract.' });
      const r = await opendev(['-p', 'what does math.ts export?'], openai());
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'It exports PI, add and subtract.\n');
      assert.equal(fake.requests.length, 2);
      assert.equal(fake.requests[0]!.headers.authorization, 'Bearer test-key');
    });

    it('does a whole task with the workhorse tools: read, edit, list, search, run a command', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'opendev-cli-task-'));
      cpSync(workspace, dir, { recursive: true });
      fake.enqueue(
        { toolCalls: [{ id: 'r', name: 'read_file', arguments: { file_path: 'math.ts' } }, { id: 's', name: 'search', arguments: { pattern: 'subtract' } }, { id: 'l', name: 'list_files', arguments: { path: '.' } }] },
        { toolCalls: [{ name: 'edit_file', arguments: { file_path: 'math.ts', old_content: 'return a - b;', new_content: 'return a - b; // checked' } }] },
        { toolCalls: [{ name: 'run_command', arguments: { command: 'grep -c checked math.ts' } }] },
        { toolCalls: [{ name: 'task_complete', arguments: { summary: 'Annotated subtract.', status: 'success' } }] },
      );
      const r = await opendev(['-p', 'annotate subtract', '--approval', 'auto', '-C', dir], openai());
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'Annotated subtract.\n');
      assert.match(readFileSync(join(dir, 'math.ts'), 'utf8'), /return a - b; \/\/ checked/);
      const [read, search, list] = toolResults(fake.requests[1]!);
      assert.match(read!.content, /export function subtract/);
      assert.match(search!.content, /math\.ts/);
      assert.match(list!.content, /README\.md/);
      assert.match(toolResults(fake.requests[2]!)[0]!.content, /^---|@@|\+.*checked/m, 'the edit result carries a diff');
      assert.match(toolResults(fake.requests[3]!)[0]!.content, /\b1\b/, 'the command saw the edited file');
    });

    it('works with Anthropic, --model and --working-dir, and prints one JSON object on request', async () => {
      fake.enqueue({ text: 'Done.' });
      const r = await opendev(['-p', 'hi', '--provider', 'anthropic', '-m', 'claude-test', '-C', workspace, '--output-format', 'json'], {
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: fake.anthropicBaseUrl,
        OPENDEV_HOME: home,
      });
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout);
      assert.equal(out.status, 'completed');
      assert.equal(out.result, 'Done.');
      assert.match(out.sessionId, /^[a-z0-9]{8}$/);
      assert.equal(typeof out.usage.promptTokens, 'number');
      assert.ok('cost' in out);
      assert.equal(fake.requests[0]!.api, 'anthropic');
      assert.equal(fake.requests[0]!.body.model, 'claude-test');
      const system = (fake.requests[0]!.body.system as Array<{ text: string }>).map((b) => b.text).join('\n');
      assert.ok(system.includes(workspace), 'the system prompt names the workspace');
    });

    it('stream-json: one JSON event per line, tool_call before tool_result before the final result', async () => {
      fake.enqueue({ toolCalls: [{ id: 'call_1', name: 'read_file', arguments: { file_path: 'math.ts' } }] }, { text: 'PI, add and subtract.' });
      const r = await opendev(['-p', 'what does math.ts export?', '--output-format', 'stream-json'], openai());
      assert.equal(r.code, 0, r.stderr);
      const events = jsonLines(r.stdout);
      const types = events.map((e) => e.type);
      const call = types.indexOf('tool_call');
      const result = types.indexOf('tool_result');
      assert.ok(call >= 0 && result > call, `order: ${types.join(',')}`);
      assert.equal(types.at(-1), 'result');
      assert.equal(types.filter((t) => t === 'result').length, 1);
      assert.deepEqual(events[call], { type: 'tool_call', id: 'call_1', name: 'read_file', args: { file_path: 'math.ts' } });
      assert.equal(events[result]!.ok, true);
      assert.equal(events[result]!.id, 'call_1');
      assert.equal(typeof events[result]!.summary, 'string');
      const text = events.filter((e) => e.type === 'text').map((e) => e.delta).join('');
      assert.equal(text, 'PI, add and subtract.');
      assert.ok(types.includes('usage'), 'usage events are reported');
      const last = events.at(-1)!;
      assert.equal(last.status, 'completed');
      assert.equal(last.result, 'PI, add and subtract.');
      assert.match(last.sessionId, /^[a-z0-9]{8}$/);
    });

    it('--thinking medium makes a reasoning call without tools once the task is taken up, before the next action call', async () => {
      fake.enqueue(readMath(), { text: 'I should just answer.' }, { text: 'It exports PI, add and subtract.' });
      const r = await opendev(['-p', 'what does math.ts export?', '--thinking', 'medium', '--output-format', 'stream-json'], openai());
      assert.equal(r.code, 0, r.stderr);
      assert.equal(fake.requests.length, 3);
      const [first, thinking, action] = fake.requests.map((q) => q.body);
      assert.ok(Array.isArray(first.tools) && first.tools.length > 0, 'the first step acts at once');
      assert.ok(!thinking.tools || thinking.tools.length === 0, 'the thinking call has no tools');
      assert.ok(Array.isArray(action.tools) && action.tools.length > 0, 'the action call has tools');
      const trace = jsonLines(r.stdout).find((e) => e.type === 'thinking' && e.phase === 'thinking');
      assert.equal(trace?.text, 'I should just answer.');
    });

    it('thinkingCadence "every-step" in settings.json thinks before every step, a greeting too', async () => {
      userSettings({ thinkingCadence: 'every-step' });
      fake.enqueue({ text: 'I should just answer.' }, { text: 'Hello.' });
      const r = await opendev(['-p', 'hi', '--thinking', 'medium'], openai());
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(fake.requests.map((q) => (q.body.tools?.length ?? 0) > 0), [false, true]);
    });

    it('OPENDEV_<ROLE>_MODEL binds a role to its own model (critique on Anthropic here)', async () => {
      userSettings({ thinkingCadence: 'every-step' }); // so that a greeting thinks
      fake.enqueue({ text: 'plan' }, { text: 'critique' }, { text: 'better plan' }, { text: 'Done.' });
      const r = await opendev(['-p', 'hi', '--thinking', 'high'], {
        ...openai(),
        OPENDEV_THINKING_MODEL: 'think-mini',
        OPENDEV_CRITIQUE_MODEL: 'claude-critic',
        OPENDEV_CRITIQUE_PROVIDER: 'anthropic',
        ANTHROPIC_API_KEY: 'ant-key',
        ANTHROPIC_BASE_URL: fake.anthropicBaseUrl,
      });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(
        fake.requests.map((q) => `${q.api}:${q.body.model}`),
        ['openai:think-mini', 'anthropic:claude-critic', 'openai:think-mini', 'openai:gpt-4.1'],
      );
    });

    it('-p defaults to thinking off (one call); OPENDEV_THINKING changes the default', async () => {
      fake.enqueue({ text: 'A.' });
      assert.equal((await opendev(['-p', 'hi'], openai())).code, 0);
      assert.equal(fake.requests.length, 1);
      assert.ok(fake.requests[0]!.body.tools.length > 0);

      fake.reset();
      fake.enqueue(readMath(), { text: 'thinking…' }, { text: 'B.' });
      const r = await opendev(['-p', 'read math.ts'], { ...openai(), OPENDEV_THINKING: 'low' });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(fake.requests.map((q) => (q.body.tools?.length ?? 0) > 0), [true, false, true], 'a thinking call once the task is taken up');

      const bad = await opendev(['-p', 'hi'], { ...openai(), OPENDEV_THINKING: 'lots' });
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /OPENDEV_THINKING="lots" is not one of off, low, medium, high/);
    });

    it('denies a doom-loop pause without --approval auto: warning on the 3rd repeat, denial notice on the 4th', async () => {
      const same = { name: 'read_file', arguments: { file_path: 'math.ts' } };
      fake.enqueue(
        { toolCalls: [{ ...same, id: 'c1' }] },
        { toolCalls: [{ ...same, id: 'c2' }] },
        { toolCalls: [{ ...same, id: 'c3' }] },
        { toolCalls: [{ ...same, id: 'c4' }] },
        { text: 'I will stop repeating myself.' },
      );
      const r = await opendev(['-p', 'read math.ts', '--output-format', 'stream-json'], openai());
      assert.equal(r.code, 0, r.stderr);
      assert.equal(fake.requests.length, 5);
      // The 3rd call was skipped with a warning the model sees in its next request.
      assert.match(toolMessage(fake.requests[3]!, 'c3'), /Not run/);
      assert.match(JSON.stringify(fake.requests[3]!.body.messages), /\[SYSTEM WARNING\]/);
      // The 4th paused for approval, which nobody could give.
      assert.match(r.stderr, /non-interactive run: approval denied \(use --approval auto to allow\)/);
      const approval = jsonLines(r.stdout).find((e) => e.type === 'approval');
      assert.deepEqual(
        { tool: approval?.tool, kind: approval?.kind, decision: approval?.decision },
        { tool: 'read_file', kind: 'doom_loop', decision: 'deny' },
      );
      assert.match(toolMessage(fake.requests[4]!, 'c4'), /Not run/);
    });

    it('--approval auto allows the doom-loop pause: the 4th repeat runs', async () => {
      const same = { name: 'read_file', arguments: { file_path: 'math.ts' } };
      fake.enqueue(
        { toolCalls: [{ ...same, id: 'c1' }] },
        { toolCalls: [{ ...same, id: 'c2' }] },
        { toolCalls: [{ ...same, id: 'c3' }] },
        { toolCalls: [{ ...same, id: 'c4' }] },
        { text: 'Done.' },
      );
      const r = await opendev(['-p', 'read math.ts', '--approval', 'auto', '--output-format', 'stream-json'], openai());
      assert.equal(r.code, 0, r.stderr);
      assert.equal(jsonLines(r.stdout).find((e) => e.type === 'approval')?.decision, 'allow');
      assert.match(toolResults(fake.requests[4]!)[0]?.content ?? '', /export const PI/);
      assert.doesNotMatch(r.stderr, /approval denied/);
    });

    it('exits 1 when the agent reports failure with task_complete', async () => {
      // Needs the task_complete tool in the main agent's registry (the harness issue wires it).
      fake.enqueue(
        { toolCalls: [{ name: 'task_complete', arguments: { summary: 'There is no such file.', status: 'failure' } }] },
        { text: 'unreachable if task_complete is registered' },
      );
      const r = await opendev(['-p', 'fix nothing.ts', '--output-format', 'json'], openai());
      const out = JSON.parse(r.stdout);
      assert.equal(out.taskStatus, 'failure', `task_complete must be registered: ${r.stdout}`);
      assert.equal(out.result, 'There is no such file.');
      assert.equal(r.code, 1);
      assert.match(r.stderr, /could not complete the task/);
    });

    it('exits 1 at the iteration cap, saying how to raise it', async () => {
      fake.enqueue({ toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }] }, { text: 'Out of steps: I read math.ts.' });
      const r = await opendev(['-p', 'go', '--max-iterations', '1', '--output-format', 'json'], openai());
      assert.equal(r.code, 1);
      assert.equal(JSON.parse(r.stdout).status, 'iteration_limit');
      assert.match(r.stderr, /--max-iterations/);
    });

    it('Ctrl+C (SIGINT) mid-stream stops the turn and exits 130', async () => {
      fake.enqueue({ text: 'one two three four five six seven eight nine ten', chunkDelayMs: 1500 });
      const child = startCli(['-p', 'count', '--output-format', 'stream-json'], openai());
      child.stdin.end();
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d));
      const code = await new Promise<number | null>((resolve) => {
        child.stdout.on('data', (d: Buffer) => {
          const first = !stdout.includes('"type":"text"');
          stdout += d;
          if (first && stdout.includes('"type":"text"')) child.kill('SIGINT');
        });
        child.on('close', resolve);
      });
      assert.equal(code, 130, stderr);
      const last = jsonLines(stdout).at(-1)!;
      assert.equal(last.type, 'result');
      assert.equal(last.status, 'stopped');
    });

    it('exits 1 with a clear message when the provider keeps failing', async () => {
      fake.setResponder(() => ({ failure: { kind: 'status', status: 503 } }));
      const r = await opendev(['-p', 'hi'], openai());
      fake.setResponder(undefined);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /OpenAI failed \(503\)/);
      assert.doesNotMatch(r.stderr, /at .*\.js:\d+/);
    });

    it('exits 1 when the provider is unreachable, naming the URL', async () => {
      const r = await opendev(['-p', 'hi'], { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENDEV_HOME: home });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /Cannot reach OpenAI at http:\/\/127\.0\.0\.1:9\/v1/);
    });
  });

  describe('sessions', () => {
    it('--continue sends the previous conversation to the model and keeps the session id', async () => {
      fake.enqueue({ text: 'The capital is Paris.' });
      const first = await opendev(['-p', 'What is the capital of France?', '--output-format', 'json'], openai());
      assert.equal(first.code, 0, first.stderr);
      const id = JSON.parse(first.stdout).sessionId;

      fake.reset();
      fake.enqueue({ text: 'About 2 million people.' });
      const second = await opendev(['--continue', '-p', 'And its population?', '--output-format', 'json'], openai());
      assert.equal(second.code, 0, second.stderr);
      assert.equal(JSON.parse(second.stdout).sessionId, id);
      assert.equal(JSON.parse(second.stdout).cost.calls, 2, 'the cost of the first run is restored on resume');
      const sent = JSON.stringify(fake.requests[0]!.body.messages);
      assert.match(sent, /What is the capital of France\?/);
      assert.match(sent, /The capital is Paris\./);
      assert.equal(lastUserText(fake.requests[0]!), 'And its population?');

      // --resume <id> does the same for a given session.
      fake.reset();
      fake.enqueue({ text: 'Yes.' });
      const third = await opendev(['--resume', id, '-p', 'Sure?'], openai());
      assert.equal(third.code, 0, third.stderr);
      assert.match(JSON.stringify(fake.requests[0]!.body.messages), /About 2 million people\./);
    });

    it('--continue without an earlier session starts a new one, saying so', async () => {
      fake.enqueue({ text: 'Fresh.' });
      const r = await opendev(['--continue', '-p', 'hi'], openai());
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /no earlier session .* starting a new one/);
    });

    it('--resume with an unknown id exits 2 and lists the recent ids', async () => {
      fake.enqueue({ text: 'Saved.' });
      const id = JSON.parse((await opendev(['-p', 'remember this', '--output-format', 'json'], openai())).stdout).sessionId;
      const r = await opendev(['--resume', 'bad', '-p', 'hi'], openai());
      assert.equal(r.code, 2);
      assert.match(r.stderr, /no session "bad"/);
      assert.ok(r.stderr.includes(id), r.stderr);
      assert.equal(fake.requests.length, 1, 'no model request for the failed resume');
    });
  });

  describe('slash commands', () => {
    it('are handled without the model in -p: /help, /mode plan, /thinking high, /sessions', async () => {
      const help = await opendev(['-p', '/help'], openai());
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, /\/plan \[task\]/);
      assert.match(help.stdout, /\/mcp \[subcommand\] \[name\] +MCP servers: list, tools/);

      const mode = await opendev(['-p', '/mode plan'], openai());
      assert.equal(mode.code, 0, mode.stderr);
      assert.match(mode.stdout, /^Mode: plan\./);

      const thinking = await opendev(['-p', '/thinking high', '--output-format', 'json'], openai());
      assert.equal(thinking.code, 0, thinking.stderr);
      const out = JSON.parse(thinking.stdout);
      assert.equal(out.status, 'completed');
      assert.equal(out.command, 'thinking');
      assert.match(out.result, /^Thinking: high\./);

      const sessions = await opendev(['-p', '/sessions'], openai());
      assert.match(sessions.stdout, /No saved sessions/);

      assert.equal(fake.requests.length, 0, 'no model request for a slash command');
    });

    it('an unknown command exits 2 listing the commands; one that cannot do its job exits 1', async () => {
      const unknown = await opendev(['-p', '/frobnicate'], openai());
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /Unknown command \/frobnicate/);
      assert.match(unknown.stderr, /\/help, \/plan, \/mode/);
      writeFileSync(join(home, 'settings.json'), JSON.stringify({ mcp_servers: { ghost: { command: join(home, 'no-such-server') } } }));
      const later = await opendev(['-p', '/mcp test ghost', '--output-format', 'stream-json'], openai());
      assert.equal(later.code, 1);
      const result = jsonLines(later.stdout).at(-1)!;
      assert.deepEqual([result.type, result.status, result.error.kind], ['result', 'failed', 'unavailable']);
      assert.equal(fake.requests.length, 0);
    });

    it('/plan <task> switches to plan mode and runs the task; // escapes a leading slash', async () => {
      fake.enqueue({ text: 'A plan.' }, { text: 'It is a folder.' });
      const plan = await opendev(['-p', '/plan add a multiply function'], openai());
      assert.equal(plan.code, 0, plan.stderr);
      assert.equal(plan.stdout, 'A plan.\n');
      assert.ok(lastUserText(fake.requests[0]!).startsWith('add a multiply function'), lastUserText(fake.requests[0]!));

      const escaped = await opendev(['-p', '//etc is what?'], openai());
      assert.equal(escaped.code, 0, escaped.stderr);
      assert.equal(lastUserText(fake.requests[1]!), '/etc is what?');
    });
  });

  describe('interactive (piped input)', () => {
    it('runs lines in order, answers from the model, slash commands, and /exit', async () => {
      fake.enqueue({ text: 'Hello from the model.' });
      const r = await opendev(['--thinking', 'off'], openai(), { input: 'hi\n/mode plan\n/exit\n' });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /Hello from the model\./);
      assert.match(r.stdout, /Mode: plan\./);
      assert.equal(fake.requests.length, 1);
      assert.equal(fake.requests[0]!.body.tools.length > 0, true);
    });

    it('defaults to thinking medium interactively, when needed: a greeting goes without, a task thinks once it is taken up', async () => {
      fake.enqueue({ text: 'Hello.' }, readMath(), { text: 'reasoning' }, { text: 'Answer.' });
      const r = await opendev([], openai(), { input: 'hi\nwhat does math.ts export?\n' });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /Thinking medium\./);
      assert.deepEqual(fake.requests.map((q) => (q.body.tools?.length ?? 0) > 0), [true, true, false, true]);
    });
  });

  describe('context engineering', () => {
    /** The fixture workspace with the project's own instructions, in a temp copy. */
    function projectWithRules(): string {
      const dir = mkdtempSync(join(tmpdir(), 'opendev-cli-context-'));
      cpSync(workspace, dir, { recursive: true });
      writeFileSync(join(dir, 'OPENDEV.md'), '# Project rules\nAlways answer in British English.\n');
      return dir;
    }

    it('-p stream-json: the composed prompt, a large output offloaded, recovery after a failure, context events', async () => {
      const steps: ScriptedTurn[] = [
        { toolCalls: [{ id: 'call_seq', name: 'run_command', arguments: { command: 'seq 1 20000' } }] },
        { toolCalls: [{ id: 'call_missing', name: 'run_command', arguments: { command: 'cat no-such-file.txt' } }] },
        { text: 'Counted; the file is missing.' },
      ];
      fake.setResponder(scriptedHarness(steps, 'unused'));
      const cwd = projectWithRules();
      const r = await opendev(['-p', 'count, then show the file', '--approval', 'auto', '--output-format', 'stream-json'], { ...openai(), OPENDEV_CONTEXT_WINDOW: '60000' }, { cwd });
      fake.setResponder(undefined);
      assert.equal(r.code, 0, r.stderr);
      const actions = fake.requests.filter((q) => harnessCallOf(q) === 'action');
      assert.match(JSON.stringify(actions[0]!.body.messages[0]), /Read before you edit[\s\S]*Always answer in British English/);
      const listing = toolMessage(actions[1]!, 'call_seq');
      assert.ok(listing.length < 2_000 && /scratch\/[^/]+\/run_command-/.test(listing), listing.slice(0, 300));
      assert.match(JSON.stringify(actions[2]!.body.messages.slice(-1)), /no-such-file\.txt/, 'a recovery reminder names the failure');
      const events = jsonLines(r.stdout);
      const readings = events.filter((e) => e.type === 'context');
      assert.ok(readings.length >= 3 && readings.every((e) => e.contextWindow === 60_000 && e.pressure > 0), JSON.stringify(readings));
      const seq = events.find((e) => e.type === 'tool_result' && e.id === 'call_seq');
      assert.ok(seq && seq.summary.length <= 200, 'the result event carries the one-line summary');
    });

    it('interactive: /compact archives and summarises, and the playbook learns (OPENDEV_PLAYBOOK_LEARN=1) and /playbook shows it', async () => {
      const steps: ScriptedTurn[] = [
        { toolCalls: [{ id: 'call_seq', name: 'run_command', arguments: { command: 'seq 1 3000' } }] },
        { toolCalls: [{ id: 'call_read', name: 'read_file', arguments: { file_path: 'math.ts' } }] },
        { toolCalls: [{ id: 'call_ls', name: 'list_files', arguments: { path: '.' } }] },
        { text: 'Listed and read.' },
        { text: 'We listed numbers and read math.ts.' },
      ];
      fake.setResponder(scriptedHarness(steps, 'Run the tests after changing math.ts.'));
      userSettings({ playbook: { reflectEvery: 5 } }); // the paper's cadence, so this short session learns
      const r = await opendev(['--thinking', 'off', '--approval', 'auto'], { ...openai(), OPENDEV_PLAYBOOK_LEARN: '1' }, {
        cwd: projectWithRules(),
        input: 'list numbers and read math.ts\n/compact keep the file names\nwhat did we do?\n/playbook\n/exit\n',
      });
      fake.setResponder(undefined);
      assert.equal(r.code, 0, r.stderr);
      const compaction = fake.requests.find((q) => harnessCallOf(q) === 'compaction');
      assert.ok(compaction, 'the compact model was called');
      assert.match(JSON.stringify(compaction.body.messages), /keep the file names/, 'the /compact instructions reach the summariser');
      const after = fake.requests.filter((q) => harnessCallOf(q) === 'action').at(-1)!;
      assert.match(JSON.stringify(after.body.messages), /\[Conversation compacted\][\s\S]*seq 1 3000/);
      assert.match(r.stdout, /compaction-\d+[^\s]*\.md/, '/compact tells where the archive is');
      assert.match(r.stdout, /Run the tests after changing math\.ts\./, '/playbook lists the learned bullet');
    });
  });

  describe('usage errors', () => {
    it('without a key names the variable to set, with no stack trace', async () => {
      const r = await opendev(['-p', 'hi'], { OPENDEV_HOME: home });
      assert.equal(r.code, 2);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /no API key for OpenAI\. Set OPENAI_API_KEY/);
      assert.doesNotMatch(r.stderr, /at .*\.js:\d+/);
    });

    it('rejects bad flags with exit 2, the fix, and a pointer to --help', async () => {
      const cases: Array<[string[], RegExp]> = [
        [['--provider', 'mistral', '-p', 'x'], /--provider must be one of openai, anthropic, openai-compatible, azure-openai, bedrock, vertex, gemini, openrouter \(got "mistral"\)/],
        [['--approval', 'yolo', '-p', 'x'], /--approval must be one of manual, semi-auto, auto/],
        [['--thinking', 'max', '-p', 'x'], /--thinking must be one of off, low, medium, high/],
        [['--output-format', 'xml', '-p', 'x'], /--output-format must be one of text, json, stream-json/],
        [['--max-iterations', '0', '-p', 'x'], /--max-iterations must be at least 1/],
        [['--max-iterations', 'many', '-p', 'x'], /--max-iterations must be a whole number/],
        [['--continue', '--resume', 'abcd1234', '-p', 'x'], /cannot be used together/],
        [['--output-format', 'json'], /needs -p/],
        [['--bogus'], /unknown option --bogus/],
        [['-p'], /--prompt needs a value/],
        [['do it'], /unexpected argument "do it": pass a prompt with -p/],
      ];
      // Every case is a UsageError of the parser, with its fix…
      for (const [args, message] of cases) assert.throws(() => parseCliArgs(args), (e: Error) => e instanceof UsageError && message.test(e.message), args.join(' '));
      // …which the CLI turns into exit 2 and the pointer: one process for each way the parser finds a
      // mistake (a value the schema refuses, flags that conflict, an option parseArgs does not know, a
      // stray argument), side by side, where one each for all eleven cost a bundle load apiece.
      const runs = await Promise.all([cases[0]!, cases[6]!, cases[8]!, cases[10]!].map(async ([args, message]) => ({ args, message, r: await opendev(args, openai()) })));
      for (const { args, message, r } of runs) {
        assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, message);
        assert.match(r.stderr, /opendev --help/);
      }
      assert.equal(fake.requests.length, 0);
    });

    it('--help and --version', async () => {
      const [help, version] = await Promise.all([opendev(['--help'], {}), opendev(['--version'], {})]);
      assert.equal(help.code, 0);
      assert.match(help.stdout, /opendev -p "<prompt>"/);
      assert.match(help.stdout, /--output-format <fmt>\s+text \| json \| stream-json/);
      assert.match(help.stdout, /OPENDEV_THINKING/);
      assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
    });
  });
});
