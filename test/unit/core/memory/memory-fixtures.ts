// Shared setup of the memory tests: model roles on the fake provider (OpenAI wire, real SDK), a
// responder that tells the memory's own calls (summariser, reflector, curator) from the agent's,
// and an agent with a memory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { Agent } from '../../../../src/core/agent/agent';
import type { TurnServices } from '../../../../src/core/llm/model-call';
import type { ResolvedRoleModel, RoleResolver } from '../../../../src/core/llm/role-resolver';
import type { ThinkingLevel } from '../../../../src/core/config/thinking-level';
import { createProvider } from '../../../../src/core/llm/create-provider';
import type { ConversationMemory } from '../../../../src/core/memory/conversation-memory';
import { loadTemplate } from '../../../../src/core/templates';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { Tool } from '../../../../src/core/tools/tool';
import { silentUI } from '../../../../src/core/ui';
import type { FakeProvider, RecordedRequest, ScriptedTurn } from '../../../fixtures/fake-provider';

/** One attempt per call, so a scripted failure surfaces at once. */
export function fakeRoles(fake: FakeProvider): RoleResolver {
  const model: ResolvedRoleModel = {
    provider: createProvider({ provider: 'openai', model: 'fake-model', apiKey: 'test-key', baseUrl: fake.openaiBaseUrl }, { retry: { maxAttempts: 1 } }),
    model: 'fake-model',
  };
  return { forRole: () => model };
}

export function turnServices(): TurnServices {
  return { ui: silentUI, usage: { promptTokens: 0, cachedTokens: 0, outputTokens: 0 }, signal: new AbortController().signal };
}

export type CallKind = 'summariser' | 'reflector' | 'curator' | 'thinking' | 'agent';

/** The text of every message of a request (OpenAI wire). */
export function requestText(req: RecordedRequest): string {
  return (req.body.messages as Array<{ content: unknown }>).map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
}

export function systemText(req: RecordedRequest): string {
  const system = (req.body.messages as Array<{ role: string; content: unknown }>).find((m) => m.role === 'system');
  return typeof system?.content === 'string' ? system.content : '';
}

/** Which of the calls a request is, by the template it starts with. */
export function kindOf(req: RecordedRequest): CallKind {
  const first = (req.body.messages as Array<{ content: unknown }>)[0]?.content;
  const text = typeof first === 'string' ? first : '';
  const starts = (template: string) => text.startsWith(loadTemplate(template)!.slice(0, 60));
  if (starts('memory/episodic.md')) return 'summariser';
  if (starts('memory/reflector.md')) return 'reflector';
  if (starts('memory/curator.md')) return 'curator';
  if (!req.body.tools) return 'thinking';
  return 'agent';
}

/** Routes each request to the answers scripted for its kind (FIFO per kind; `fallback` after). */
export function routeByKind(fake: FakeProvider, scripts: Partial<Record<CallKind, Array<ScriptedTurn | ((req: RecordedRequest) => ScriptedTurn | Promise<ScriptedTurn>)>>>, fallback: Partial<Record<CallKind, ScriptedTurn>> = {}): void {
  fake.setResponder((req) => {
    const kind = kindOf(req);
    const next = scripts[kind]?.shift() ?? fallback[kind];
    if (!next) return { failure: { kind: 'status', status: 500 } };
    return typeof next === 'function' ? next(req) : next;
  });
}

export function requestsOf(fake: FakeProvider, kind: CallKind): RecordedRequest[] {
  return fake.requests.filter((r) => kindOf(r) === kind);
}

export function tempHome(): { home: string; cleanup(): void } {
  const home = mkdtempSync(join(tmpdir(), 'opendev-memory-'));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/** A read-only tool that says what it was asked. */
export const echoTool: Tool = (() => {
  const schema = z.object({ text: z.string() });
  const tool: Tool<typeof schema> = {
    name: 'echo',
    category: 'meta',
    readOnly: true,
    schema,
    async run(args) {
      return { ok: true, output: `echo: ${args.text}`, summary: '✓ echoed' };
    },
  };
  return tool;
})();

export function memoryAgent(fake: FakeProvider, memory: ConversationMemory | undefined, options: { thinkingLevel?: ThinkingLevel; dispose?: () => Promise<void> } = {}): Agent {
  const registry = new ToolRegistry();
  registry.register(echoTool);
  return new Agent({
    identity: { name: 'main', isSubagent: false },
    workspaceRoot: process.cwd(),
    model: {
      roles: fakeRoles(fake),
      systemPrompt: { stable: 'You are a test agent.', dynamic: 'Workspace: /tmp' },
      promptVars: { WORKSPACE_ROOT: '/tmp' },
      maxIterations: 20,
      thinkingLevel: options.thinkingLevel ?? 'off',
    },
    tools: {
      registry,
      todos: { list: () => [], hasOpen: () => false },
    },
    context: { memory },
    session: { dispose: options.dispose },
  });
}
