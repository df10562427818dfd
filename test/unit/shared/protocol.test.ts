import * as assert from 'node:assert/strict';
import { ChatEntrySchema, ExtensionToWebviewSchema, WebviewToExtensionSchema } from '../../../src/shared/protocol';

const accepts = (schema: { safeParse(v: unknown): { success: boolean } }, values: unknown[]) => {
  for (const v of values) assert.equal(schema.safeParse(v).success, true, `should accept ${JSON.stringify(v)?.slice(0, 120)}`);
};
const rejects = (schema: { safeParse(v: unknown): { success: boolean } }, values: unknown[]) => {
  for (const v of values) assert.equal(schema.safeParse(v).success, false, `should reject ${JSON.stringify(v)?.slice(0, 120)}`);
};

const question = {
  header: 'Database',
  question: 'Which one?',
  options: [
    { label: 'Postgres', description: 'server' },
    { label: 'Other', description: 'Type your own answer.' },
  ],
  multiSelect: false,
};

describe('webview protocol', () => {
  describe('webview → extension', () => {
    it('accepts the messages the chat view sends', () => {
      accepts(WebviewToExtensionSchema, [
        { type: 'ready' },
        { type: 'send', text: 'hi' },
        { type: 'stop' },
        { type: 'newChat' },
        { type: 'action', action: 'setApiKey' },
        { type: 'action', action: 'setApiKey', provider: 'anthropic' },
        { type: 'action', action: 'chooseProvider' },
        { type: 'draft', text: '`math.ts` line 1:' },
        { type: 'draft', text: '' },
        { type: 'answerApproval', id: 'e1', decision: { action: 'allow' } },
        { type: 'answerApproval', id: 'e1', decision: { action: 'always' } },
        { type: 'answerApproval', id: 'e1', decision: { action: 'deny' } },
        { type: 'answerApproval', id: 'e1', decision: { action: 'deny', feedback: 'use yarn' } },
        { type: 'answerApproval', id: 'e1', decision: { action: 'edit', command: 'npm test -- --grep x' } },
        { type: 'answerQuestions', id: 'e2', answers: null },
        { type: 'answerQuestions', id: 'e2', answers: { answers: [{ header: 'Database', selected: ['Postgres'] }] } },
        { type: 'answerQuestions', id: 'e2', answers: { answers: [{ header: 'Database', selected: ['Other'], other: 'MySQL' }] } },
        { type: 'answerPlan', id: 'e3', decision: { action: 'approve_auto' } },
        { type: 'answerPlan', id: 'e3', decision: { action: 'approve' } },
        { type: 'answerPlan', id: 'e3', decision: { action: 'modify', feedback: 'Add tests.' } },
        { type: 'complete', text: '/p' },
        { type: 'complete', text: '/thinking h' },
        { type: 'switchMode' },
        { type: 'inputState', viewFocused: true, inputFocused: true, suggesting: false },
      ]);
    });

    it('rejects anything else: unknown types, blank or huge text, unknown actions, non-objects', () => {
      rejects(WebviewToExtensionSchema, [
        { type: 'exec', command: 'rm -rf /' },
        { type: 'send', text: '   ' },
        { type: 'send', text: 'x'.repeat(100_001) },
        { type: 'send' },
        { type: 'action', action: 'runShell' },
        { type: 'action', action: 'setApiKey', provider: 'mistral' },
        { type: 'draft', text: 'x'.repeat(100_001) },
        'send',
        null,
      ]);
    });

    it('rejects malformed answers: unknown decisions, blank edits and feedback, missing ids, wrong shapes', () => {
      rejects(WebviewToExtensionSchema, [
        { type: 'answerApproval', id: 'e1', decision: { action: 'run' } },
        { type: 'answerApproval', id: 'e1', decision: { action: 'edit', command: '   ' } },
        { type: 'answerApproval', id: 'e1', decision: { action: 'edit' } },
        { type: 'answerApproval', id: '', decision: { action: 'allow' } },
        { type: 'answerApproval', decision: { action: 'allow' } },
        { type: 'answerApproval', id: 'e1', decision: 'allow' },
        { type: 'answerQuestions', id: 'e2' },
        { type: 'answerQuestions', id: 'e2', answers: { answers: [{ header: 'Database', selected: 'Postgres' }] } },
        { type: 'answerQuestions', id: 'e2', answers: { answers: [{ header: 'Database', selected: ['x'.repeat(201)] }] } },
        { type: 'answerQuestions', id: 'e2', answers: [{ header: 'Database', selected: ['Postgres'] }] },
        { type: 'answerPlan', id: 'e3', decision: { action: 'modify', feedback: '  ' } },
        { type: 'answerPlan', id: 'e3', decision: { action: 'modify' } },
        { type: 'answerPlan', id: 'e3', decision: { action: 'reject' } },
        { type: 'complete', text: 'plan' },
        { type: 'complete', text: `/${'p'.repeat(300)}` },
        { type: 'inputState', viewFocused: true, inputFocused: 'yes', suggesting: false },
        { type: 'inputState', viewFocused: true, inputFocused: true },
      ]);
      // A switchMode message carries nothing; extra keys are stripped, not trusted.
      const parsed = WebviewToExtensionSchema.safeParse({ type: 'switchMode', mode: 42 });
      assert.deepEqual(parsed.success && parsed.data, { type: 'switchMode' });
    });

    it('trims the text of answers as it validates them', () => {
      const parsed = WebviewToExtensionSchema.parse({ type: 'answerApproval', id: 'e1', decision: { action: 'edit', command: '  ls -la \n' } });
      assert.deepEqual(parsed, { type: 'answerApproval', id: 'e1', decision: { action: 'edit', command: 'ls -la' } });
    });
  });

  describe('extension → webview', () => {
    it('validates what the extension sends to the view', () => {
      assert.equal(ExtensionToWebviewSchema.safeParse({ type: 'textDelta', id: 'e1', delta: 'x' }).success, true);
      assert.equal(ExtensionToWebviewSchema.safeParse({ type: 'upsert', entry: { kind: 'tool', id: 't', name: 'read_file', args: '{}', status: 'done' } }).success, false);
    });

    it('accepts the live state: snapshot, todos, cost, agent state, completions, remove', () => {
      const todo = { id: '1', title: 'Add multiply', description: '', status: 'doing' };
      const cost = { inputTokens: 1200, cachedTokens: 200, outputTokens: 30, calls: 1 };
      accepts(ExtensionToWebviewSchema, [
        { type: 'snapshot', conversation: 0, entries: [], busy: false, todos: [], mode: 'normal', thinkingLevel: 'medium' },
        { type: 'snapshot', conversation: 0, entries: [{ kind: 'user', id: 'e1', text: 'hi' }], busy: true, todos: [todo], cost, mode: 'plan', thinkingLevel: 'off' },
        { type: 'todos', todos: [todo, { ...todo, id: '2', status: 'done', log: 'did it' }] },
        { type: 'cost', cost },
        { type: 'cost', cost: { ...cost, usd: 0.0123 } },
        { type: 'agentState', mode: 'plan', thinkingLevel: 'high' },
        { type: 'completions', text: '/p', items: [{ name: '/plan', description: 'Switch to plan mode' }] },
        { type: 'remove', id: 'e4' },
        { type: 'compose' },
        { type: 'compose', text: '`math.ts` line 1:\n```typescript\nexport const PI = 3.14159;\n```' },
      ]);
      rejects(ExtensionToWebviewSchema, [
        { type: 'snapshot', entries: [], busy: false },
        { type: 'todos', todos: [{ ...todo, status: 'blocked' }] },
        { type: 'cost', cost: { ...cost, inputTokens: -1 } },
        { type: 'cost', cost: { ...cost, calls: 1.5 } },
        { type: 'agentState', mode: 'auto', thinkingLevel: 'high' },
        { type: 'agentState', mode: 'plan', thinkingLevel: 'max' },
        { type: 'completions', text: '/p', items: [{ name: '/plan' }] },
        { type: 'remove' },
      ]);
    });

    it('accepts every entry kind and rejects malformed ones', () => {
      const request = { kind: 'tool', toolName: 'run_command', title: 'Run npm test', args: '{"command":"npm test"}', command: 'npm test' };
      accepts(ChatEntrySchema, [
        { kind: 'user', id: 'e1', text: 'hi', queued: true },
        { kind: 'notice', id: 'e2', text: 'Retrying in 2 s (attempt 2/4): 429', level: 'warning' },
        { kind: 'notice', id: 'e3', text: 'Commands: …', command: '/help' },
        { kind: 'thinking', id: 'e4', phase: 'critique', text: 'The plan misses tests.' },
        { kind: 'thinking', id: 'e5', phase: 'reasoning', text: '' },
        { kind: 'subagent', id: 'e6', agentId: 'a1', type: 'Code-Explorer', task: 'find add', background: false, status: 'running' },
        { kind: 'subagent', id: 'e6', agentId: 'a1', type: 'Code-Explorer', task: 'find add', background: true, status: 'completed', summary: 'in math.ts' },
        { kind: 'approval', id: 'e7', request, state: 'pending' },
        { kind: 'approval', id: 'e7', request: { ...request, kind: 'doom_loop', diff: '--- a\n+++ b' }, state: 'answered', decision: { action: 'edit', command: 'npm t' } },
        { kind: 'question', id: 'e8', questions: [question], state: 'pending' },
        { kind: 'question', id: 'e8', questions: [question], state: 'answered', answers: { answers: [{ header: 'Database', selected: ['Postgres'] }] } },
        { kind: 'question', id: 'e8', questions: [question], state: 'cancelled' },
        { kind: 'plan', id: 'e9', path: '/w/.opendev/plans/p.md', content: '# Plan', state: 'answered', decision: { action: 'approve' } },
        { kind: 'setup', id: 'e10', provider: 'anthropic', title: 'Connect OpenDev to Anthropic', text: 'OpenDev needs an API key…' },
      ]);
      rejects(ChatEntrySchema, [
        { kind: 'thinking', id: 'e4', phase: 'daydream', text: '' },
        { kind: 'notice', id: 'e2', text: 'x', level: 'error' },
        { kind: 'subagent', id: 'e6', agentId: 'a1', type: 'x', task: 'y', background: false, status: 'paused' },
        { kind: 'approval', id: 'e7', request: { ...request, kind: 'shell' }, state: 'pending' },
        { kind: 'approval', id: 'e7', request, state: 'waiting' },
        { kind: 'question', id: 'e8', questions: [{ ...question, multiSelect: 'no' }], state: 'pending' },
        { kind: 'plan', id: 'e9', path: 'p.md', state: 'pending' },
        { kind: 'setup', id: 'e10', provider: 'mistral', title: 't', text: 'x' },
      ]);
    });
  });
});
