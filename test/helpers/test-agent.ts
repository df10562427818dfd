import { z } from 'zod';
import { Agent, type AgentContextConfig } from '../../src/core/agent/agent';
import type { ResolvedRoleModel, RoleResolver } from '../../src/core/llm/role-resolver';
import type { ThinkingLevel } from '../../src/core/config/thinking-level';
import { createProvider } from '../../src/core/llm/create-provider';
import type { Todo, TodoList } from '../../src/core/todo';
import { ToolRegistry } from '../../src/core/tools/registry';
import type { Tool } from '../../src/core/tools/tool';
import type { FakeProvider } from '../fixtures/fake-provider';

export type WireFormat = 'openai' | 'anthropic';

/** An agent on the real SDK of `wire`, pointed at the fake provider, with the given tools. */
export function testAgent(options: {
  wire: WireFormat;
  fake: FakeProvider;
  tools: Tool[];
  thinkingLevel?: ThinkingLevel;
  maxIterations?: number;
  todos?: TodoList;
  workspaceRoot?: string;
  /** The tool-result economy (large outputs offloaded); default none. */
  shapeResult?: AgentContextConfig['shapeResult'];
}): Agent {
  const action: ResolvedRoleModel = {
    provider: createProvider({
      provider: options.wire,
      model: 'fake-model',
      apiKey: 'test-key',
      baseUrl: options.wire === 'openai' ? options.fake.openaiBaseUrl : options.fake.anthropicBaseUrl,
    }),
    model: 'fake-model',
  };
  const roles: RoleResolver = { forRole: () => action };
  const registry = new ToolRegistry();
  for (const tool of options.tools) registry.register(tool);
  return new Agent({
    identity: { name: 'main', isSubagent: false },
    workspaceRoot: options.workspaceRoot ?? process.cwd(),
    model: {
      roles,
      systemPrompt: { stable: 'You are a test agent.', dynamic: 'Workspace: /tmp' },
      promptVars: { WORKSPACE_ROOT: options.workspaceRoot ?? process.cwd() },
      maxIterations: options.maxIterations ?? 20,
      thinkingLevel: options.thinkingLevel ?? 'off',
    },
    tools: {
      registry,
      todos: options.todos ?? { list: () => [], hasOpen: () => false },
    },
    context: { shapeResult: options.shapeResult },
  });
}

/** A read-only tool that waits `ms` and records when it ran (to measure overlap). */
export function slowTool(name: string, spans: Array<{ start: number; end: number }>, readOnly = true, onStart?: () => void): Tool {
  const schema = z.object({ ms: z.number().int().min(0).max(10_000) });
  const tool: Tool<typeof schema> = {
    name,
    category: 'meta',
    readOnly,
    schema,
    async run(args, ctx) {
      const start = Date.now();
      onStart?.();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, args.ms);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      spans.push({ start, end: Date.now() });
      return ctx.signal.aborted
        ? { ok: false, output: 'interrupted', summary: '✗ interrupted', errorKind: 'other' }
        : { ok: true, output: `waited ${args.ms} ms`, summary: `✓ waited ${args.ms} ms` };
    },
  };
  return tool;
}

/** A todo list a test controls. */
export function fixedTodos(todos: Todo[]): TodoList {
  return { list: () => todos, hasOpen: () => todos.some((t) => t.status !== 'done') };
}
