// Context engineering, measured (issue 5): the fixed 40-iteration session of
// test/fixtures/long-session (file reads, searches, test runs, edits over a generated project)
// replayed through the real agent with context management on and off: peak and mean prompt
// tokens per action call, and how many full (LLM) compactions ran. Then the first "hello": the
// system prompt plus every built-in tool schema (the editor's included, as VS Code offers them),
// counted with a real tokenizer (o200k_base).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMainAgent } from '../../src/core/agent/create-agent';
import { silentUI } from '../../src/core/ui';
import { FakeProvider } from '../../test/fixtures/fake-provider';
import { editorHostPorts } from '../../test/helpers/editor-ports';
import { runLongSession, type LongSessionRun } from '../../test/fixtures/long-session/run-session';
import { LONG_SESSION_ITERATIONS } from '../../test/fixtures/long-session/script';
import { printTable } from '../stats';
import { requestTokens } from '../tokens';

/**
 * Two windows: 32k (small local models, or a long task on a large one), where the raw session
 * reaches about twice the window, and 16k, about four times, where every stage has to work.
 */
const WINDOWS = [32_000, 16_000];

export async function main(): Promise<void> {
  const fake = new FakeProvider();
  await fake.start();
  try {
    const home = mkdtempSync(join(tmpdir(), 'opendev-bench-context-'));
    for (const window of WINDOWS) {
      const off = await runLongSession(fake, { contextWindow: window, contextManagement: false, home });
      const on = await runLongSession(fake, { contextWindow: window, contextManagement: true, home });
      const rows = [row('off (no context management)', off, window), row('on (offload + staged compaction)', on, window)];
      printTable(`context: ${LONG_SESSION_ITERATIONS}-iteration session, window ${window.toLocaleString('en-US')} tokens (prompt tokens per action call)`, rows);
      const peakCut = 1 - Math.max(...on.actionPromptTokens) / Math.max(...off.actionPromptTokens);
      const meanCut = 1 - mean(on.actionPromptTokens) / mean(off.actionPromptTokens);
      const stages = [...new Set(on.context.map((c) => c.stage).filter(Boolean))].join(' → ');
      console.log(`  peak ${pct(peakCut)} lower, mean ${pct(meanCut)} lower with context management; stages: ${stages || 'none'} (target: peak ≥ 60% lower, ≤ 1 full compaction)`);
    }

    const hello = await helloPrompt(fake, home);
    printTable('context: first "hello" request (o200k_base tokens; target < 8,000)', [
      { part: 'system prompt', tokens: fmt(hello.system) },
      { part: `tool schemas (${hello.toolCount} tools)`, tokens: fmt(hello.tools) },
      { part: 'total with the message', tokens: fmt(hello.total) },
    ]);
  } finally {
    await fake.stop();
  }
}

function row(name: string, run: LongSessionRun, window: number): Record<string, string> {
  const tokens = run.actionPromptTokens;
  return {
    run: name,
    calls: String(tokens.length),
    peak: fmt(Math.max(...tokens)),
    mean: fmt(mean(tokens)),
    'peak/window': pct(Math.max(...tokens) / window),
    'full compactions': String(run.context.filter((c) => c.stage === 'full_compaction').length),
    'tasks completed': `${run.results.filter((r) => r.status === 'completed').length}/${run.results.length}`,
  };
}

async function helloPrompt(fake: FakeProvider, home: string): Promise<{ system: number; tools: number; total: number; toolCount: number }> {
  fake.reset();
  fake.enqueue({ text: 'Hello! What would you like to work on?' });
  const agent = await createMainAgent({
    roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'test-key', baseUrl: fake.openaiBaseUrl } },
    workspaceRoot: process.cwd(),
    home,
    thinkingLevel: 'off',
    // As in VS Code, the host with the most tools: the symbol tools and notebook_edit are registered too.
    host: editorHostPorts(),
  });
  try {
    await agent.runTurn('hello', silentUI);
  } finally {
    agent.dispose();
  }
  const { system, tools, total, toolNames } = requestTokens(fake.requests[0]!.body);
  return { system, tools, total, toolCount: toolNames.length };
}

function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function pct(ratio: number): string {
  return `${Math.round(ratio * 100)}%`;
}
