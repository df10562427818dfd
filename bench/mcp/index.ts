// Lazy MCP discovery, measured (issue 8): the first "hello" request of a session, counted with a
// real tokenizer (o200k_base) like bench/context, with no MCP server and with 150 MCP tools
// registered (server-filesystem 14 + server-memory 9 + the generated-tools fixture 127, all started
// before the first message) — lazy (deferred: search_tools and one line per server) and eager
// (every schema sent). The paper: eager ~40% of the context before the first message, lazy < 5%;
// our target: lazy overhead < 2% over no MCP.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMainAgent } from '../../src/core/agent/create-agent';
import type { MainAgentOptions } from '../../src/core/agent/main-agent-options';
import { silentUI } from '../../src/core/ui';
import { FakeProvider } from '../../test/fixtures/fake-provider';
import { editorHostPorts } from '../../test/helpers/editor-ports';
import { entry, serverConfigs } from '../../test/helpers/mcp-servers';
import { printTable } from '../stats';
import { requestTokens } from '../tokens';

const MCP_TOOLS = 150;
/** filesystem (14) + memory (9) + the fixture's fixed 5: the rest are generated. */
const GENERATED = MCP_TOOLS - 14 - 9 - 5;

interface Hello {
  system: number;
  tools: number;
  total: number;
  toolCount: number;
  mcpSchemas: number;
  registered: number;
}

export async function main(): Promise<void> {
  const fake = new FakeProvider();
  await fake.start();
  try {
    const home = mkdtempSync(join(tmpdir(), 'opendev-bench-mcp-'));
    const workspace = mkdtempSync(join(tmpdir(), 'opendev-bench-mcp-ws-'));
    const servers = [
      entry('files', serverConfigs.filesystem(workspace)),
      entry('memory', serverConfigs.memory(join(home, 'memory.jsonl'))),
      entry('acme', serverConfigs.fixture(GENERATED)),
    ];
    const load = () => ({ servers, warnings: [] });
    // The CLI (fewest built-in tools: the smallest base, so the largest share) and VS Code (the editor's tools too).
    for (const [hostName, host] of [['CLI', undefined], ['VS Code', editorHostPorts()]] as const) {
      const base = { home, workspaceRoot: workspace, host };
      const none = await hello(fake, { ...base, mcp: false });
      const lazy = await hello(fake, { ...base, mcp: { load } });
      const eager = await hello(fake, { ...base, mcp: { load, eager: true } });
      const row = (name: string, h: Hello) => ({
        session: name,
        'MCP tools registered': String(h.registered),
        'schemas sent': `${h.toolCount} (${h.mcpSchemas} MCP)`,
        'system prompt': fmt(h.system),
        'tool schemas': fmt(h.tools),
        total: fmt(h.total),
        'overhead vs no MCP': h === none ? '—' : `+${fmt(h.total - none.total)} (${pct((h.total - none.total) / none.total)})`,
        'MCP share of the request': h === none ? '—' : pct((h.total - none.total) / h.total),
      });
      printTable(`mcp (${hostName}): first "hello" request, o200k_base tokens, 3 servers with ${MCP_TOOLS} MCP tools (target: lazy overhead < 2%)`, [
        row('no MCP', none),
        row('lazy (search_tools)', lazy),
        row('eager (every schema)', eager),
      ]);
      console.log(`  lazy discovery sends ${pct(1 - (lazy.total - none.total) / (eager.total - none.total))} fewer MCP tokens than eager loading`);
    }
  } finally {
    await fake.stop();
  }
}

async function hello(fake: FakeProvider, options: Pick<MainAgentOptions, 'home' | 'workspaceRoot' | 'mcp' | 'host'>): Promise<Hello> {
  fake.reset();
  fake.enqueue({ text: 'Hello! What would you like to work on?' });
  const agent = await createMainAgent({
    roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'test-key', baseUrl: fake.openaiBaseUrl } },
    thinkingLevel: 'off',
    undo: false,
    // One id for every run: the prompt names the session, and a random id's tokens vary by a few.
    sessionId: 'benchmcp',
    ...options,
  });
  let registered = 0;
  try {
    // Lazy: every server started and its tools registered (deferred) before the first message.
    for (const server of agent.mcp?.list() ?? []) registered += (await agent.mcp!.connect(server.name)).toolCount ?? 0;
    await agent.runTurn('hello', silentUI);
  } finally {
    await agent.dispose();
  }
  const { system, tools, total, toolNames } = requestTokens(fake.requests[0]!.body);
  return { system, tools, total, toolCount: toolNames.length, mcpSchemas: toolNames.filter((n) => n.startsWith('mcp__')).length, registered };
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function pct(ratio: number): string {
  return `${(ratio * 100).toFixed(2)}%`;
}
