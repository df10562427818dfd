// Harness overhead per iteration: everything the ReAct loop does around a model call and a tool
// call (dispatch, validation, doom-loop fingerprints, history, reminders), measured with an
// instant in-process model and a trivial tool, at 50, 500 and 2,000 messages of history.
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { Agent } from '../../src/core/agent/agent';
import type { LlmProvider, ProviderEvent, ProviderRequest } from '../../src/core/llm/provider';
import type { Message } from '../../src/core/messages';
import { ToolRegistry } from '../../src/core/tools/registry';
import type { Tool } from '../../src/core/tools/tool';
import { silentUI } from '../../src/core/ui';
import { percentile, printTable } from '../stats';

/** Answers instantly: a tool call after a user message, text after a tool result. */
const instantModel: LlmProvider = {
  id: 'instant',
  async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
    const last = request.messages[request.messages.length - 1];
    if (last?.role === 'tool') yield { type: 'text', delta: 'done' };
    else yield { type: 'tool_call', call: { id: `c${request.messages.length}`, name: 'echo', arguments: `{"text":"${request.messages.length}"}` } };
    yield { type: 'usage', usage: { promptTokens: 10, cachedTokens: 0, outputTokens: 1 } };
  },
};

const echoSchema = z.object({ text: z.string() });
const echo: Tool<typeof echoSchema> = {
  name: 'echo',
  category: 'meta',
  readOnly: true,
  schema: echoSchema,
  run: async (args) => ({ ok: true, output: args.text, summary: `✓ ${args.text}` }),
};

function history(size: number): Message[] {
  const out: Message[] = [];
  for (let i = 0; out.length < size; i++) {
    out.push({ role: 'user', content: `question ${i} ${'lorem ipsum '.repeat(20)}` });
    out.push({ role: 'assistant', content: '', toolCalls: [{ id: `h${i}`, name: 'echo', arguments: `{"text":"${i}"}` }] });
    out.push({ role: 'tool', toolCallId: `h${i}`, name: 'echo', content: `result ${i} ${'x'.repeat(400)}`, isError: false });
    out.push({ role: 'assistant', content: `answer ${i}`, toolCalls: [] });
  }
  return out.slice(0, size);
}

async function measure(size: number, turns: number): Promise<number[]> {
  const agent = new Agent({
    identity: { name: 'main', isSubagent: false },
    workspaceRoot: process.cwd(),
    model: {
      roles: { forRole: () => ({ provider: instantModel, model: 'instant' }) },
      systemPrompt: { stable: 'bench', dynamic: '' },
      promptVars: {},
      maxIterations: 10,
      thinkingLevel: 'off',
    },
    tools: {
      registry: new ToolRegistry().register(echo),
      todos: { list: () => [], hasOpen: () => false },
    },
  });
  const base = history(size);
  const perIteration: number[] = [];
  for (let i = 0; i < turns; i++) {
    agent.restore(base);
    const start = performance.now();
    const result = await agent.runTurn(`bench ${i}`, silentUI);
    perIteration.push((performance.now() - start) / result.iterations);
  }
  return perIteration;
}

export async function main(): Promise<void> {
  await measure(50, 50); // warm-up: JIT and template cache
  const rows: Array<Record<string, string>> = [];
  let base = 0;
  for (const size of [50, 500, 2000]) {
    const samples = await measure(size, 300);
    const median = percentile(samples, 50);
    if (size === 50) base = median;
    rows.push({
      history: `${size} messages`,
      'median ms/iteration': median.toFixed(3),
      'p95 ms/iteration': percentile(samples, 95).toFixed(3),
      'vs 50 msgs': `${(median / base).toFixed(2)}×`,
      'history ratio': `${(size / 50).toFixed(0)}×`,
    });
  }
  printTable('harness overhead per iteration (instant model, trivial tool)', rows);
  console.log('target: median < 2 ms at 50 messages; growth no worse than linear (ratio ≤ history ratio)');
}

if (require.main === module) void main();
