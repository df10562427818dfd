import type { ResolvedRoleModel, RoleResolver } from '../../../../../src/core/llm/role-resolver';
import { unknownModelCapabilities } from '../../../../../src/core/llm/capabilities/model-capabilities';
import { createProvider } from '../../../../../src/core/llm/create-provider';
import type { Message, ToolCall } from '../../../../../src/core/messages';
import type { FakeProvider } from '../../../../fixtures/fake-provider';

/** A tool output of about `chars` characters carrying `marker`, so a test can find it again. */
export function bigOutput(marker: string, chars = 3000): string {
  const lines = [`${marker} begins`];
  for (let i = 1; lines.join('\n').length < chars; i++) lines.push(`${String(i).padStart(5)}\texport function step${i}(input: Parser): Result { return input.next(${i}); }`);
  lines.push(`${marker} ends`);
  return lines.join('\n');
}

const call = (id: string, name: string, args: Record<string, unknown>): ToolCall => ({ id, name, arguments: JSON.stringify(args) });
const result = (c: ToolCall, content: string, summary: string, isError = false): Message => ({ role: 'tool', toolCallId: c.id, name: c.name, content, isError, summary });

export const TASK = 'TASK: fix the failing parser tests in src/parser.ts';
export const FOLLOW_UP = 'Also update the README when you are done';

/**
 * 24 messages of realistic work: reads (one failing), an edit, a created file, test runs, a delete
 * through run_command, a follow-up request from the user, parallel reads, a batch, a final answer.
 */
export function workHistory(): Message[] {
  const c1 = call('c1', 'read_file', { file_path: 'src/parser.ts' });
  const c2 = call('c2', 'run_command', { command: 'npm test' });
  const c3 = call('c3', 'edit_file', { file_path: 'src/parser.ts', old_content: 'return a', new_content: 'return b' });
  const c4 = call('c4', 'write_file', { file_path: 'test/parser-extra.test.ts', content: 'it("parses", () => {});\n' });
  const c5 = call('c5', 'read_file', { file_path: 'missing.ts' });
  const c6 = call('c6', 'run_command', { command: 'rm -f old-parser.ts && git rm -q legacy/parser.js' });
  const c7 = call('c7', 'read_file', { file_path: 'README.md' });
  const c8 = call('c8', 'read_file', { file_path: './src/parser.ts' });
  const c9 = call('c9', 'edit_file', { file_path: 'README.md', old_content: '## Parser', new_content: '## Parser (fixed)' });
  const c10 = call('c10', 'run_command', { command: 'npm test' });
  const c11 = call('c11', 'batch_tool', { mode: 'parallel', calls: [{ tool: 'read_file', args: { file_path: 'docs/a.md' } }, { tool: 'run_command', args: { command: 'npm run lint' } }] });
  return [
    { role: 'user', content: TASK },
    { role: 'assistant', content: 'Reading the parser first.', toolCalls: [c1] },
    result(c1, bigOutput('UNIQUE-OUTPUT-c1'), '✓ Read src/parser.ts (40 lines, 3,000 chars)'),
    { role: 'assistant', content: '', toolCalls: [c2] },
    result(c2, bigOutput('UNIQUE-OUTPUT-c2'), '✗ exit 1: 3 failing tests', true),
    { role: 'assistant', content: 'The tokenizer returns the wrong value.', toolCalls: [c3] },
    result(c3, 'Edited src/parser.ts: 1 replacement.', '✓ Edited src/parser.ts'),
    { role: 'assistant', content: '', toolCalls: [c4] },
    result(c4, 'Created test/parser-extra.test.ts (1 line, 25 bytes).', '✓ Created test/parser-extra.test.ts (1 line)'),
    { role: 'assistant', content: '', toolCalls: [c5] },
    result(c5, 'missing.ts does not exist. Check the path with list_files or search.', '✗ not_found: missing.ts does not exist', true),
    { role: 'assistant', content: 'Removing the old parser.', toolCalls: [c6] },
    result(c6, '', '✓ exit 0 (no output)'),
    { role: 'user', content: FOLLOW_UP },
    { role: 'assistant', content: '', toolCalls: [c7, c8] },
    result(c7, '# Project\n## Parser\nParses things.', '✓ Read README.md (3 lines, 35 chars)'),
    result(c8, bigOutput('UNIQUE-OUTPUT-c8'), '✓ Read src/parser.ts (40 lines, 3,000 chars)'),
    { role: 'assistant', content: '', toolCalls: [c9] },
    result(c9, 'Edited README.md: 1 replacement.', '✓ Edited README.md'),
    { role: 'assistant', content: 'Running the tests again.', toolCalls: [c10] },
    result(c10, bigOutput('UNIQUE-OUTPUT-c10'), '✓ exit 0: 42 passing'),
    { role: 'assistant', content: '', toolCalls: [c11] },
    result(c11, 'Batch of 2 (parallel): 2 succeeded.\n\n[1/2] read_file ✓\n# A\n\n[2/2] run_command ✓\nno lint errors', '✓ Batch: 2 calls (parallel)'),
    { role: 'assistant', content: 'Tests pass now and the README is updated.', toolCalls: [] },
  ];
}

/** A long conversation of text only (nothing for masking or pruning to free): `turns` question/answer pairs. */
export function chatHistory(turns: number): Message[] {
  const history: Message[] = [{ role: 'user', content: `${TASK}\n${'Context: '.repeat(50)}` }];
  for (let i = 0; i < turns; i++) {
    history.push({ role: 'assistant', content: `Answer ${i}: ${'the parser keeps a cursor and a lookahead buffer; '.repeat(40)}`, toolCalls: [] });
    history.push({ role: 'user', content: `Question ${i + 1}: ${'what about the error recovery of the tokenizer? '.repeat(30)}` });
  }
  return history;
}

/** Roles on the fake provider's OpenAI wire: `compact-model` for compaction, `action-model` otherwise. */
export function fakeRoles(fake: FakeProvider, contextWindow = 128_000): RoleResolver {
  const provider = createProvider({ provider: 'openai', model: 'action-model', apiKey: 'test-key', baseUrl: fake.openaiBaseUrl });
  const model = (name: string): ResolvedRoleModel => ({ provider, model: name, capabilities: { ...unknownModelCapabilities(), contextWindow } });
  return { forRole: (role) => model(role === 'compact' ? 'compact-model' : 'action-model') };
}

/** The text of the user message of a recorded compaction request (OpenAI wire: [system, user]). */
export function summariserPrompt(body: { messages: Array<{ role: string; content: string }> }): { system: string; user: string } {
  const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
  const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
  return { system, user };
}
