import * as assert from 'node:assert/strict';
import { mcpServersPrompt, withMcpServers } from '../../../../src/core/mcp/mcp-prompt';
import type { McpServerEntry } from '../../../../src/core/mcp/mcp-types';
import { entry } from '../../../helpers/mcp-servers';

describe('the MCP servers in the system prompt', () => {
  it('one compact line per enabled server: its description, else its transport; nothing without enabled servers', () => {
    const text = mcpServersPrompt([
      entry('memory', { command: '/usr/local/bin/mcp-server-memory', description: 'Knowledge graph\nof the project' }),
      entry('docs', { type: 'http', url: 'https://docs.example.com/mcp' }),
      entry('events', { type: 'sse', url: 'http://127.0.0.1:9000/sse' }),
      entry('gh', { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'] }),
      entry('local', { command: '/usr/bin/node', args: ['--inspect', '/srv/mcp/my-server.js'] }),
      entry('off', { command: 'x' }, false),
    ]);
    assert.match(text, /^## MCP servers \(tools via search_tools\)\n/);
    assert.deepEqual(text.split('\n').filter((l) => l.startsWith('- ')), [
      '- memory: Knowledge graph of the project',
      '- docs: docs.example.com',
      '- events: 127.0.0.1:9000 (SSE)',
      '- gh: @modelcontextprotocol/server-github',
      '- local: my-server.js',
    ]);
    assert.equal(mcpServersPrompt([entry('off', { command: 'x' }, false)]), '');
    assert.equal(mcpServersPrompt([]), '');
  });

  it('follows the hub: a server added by /mcp add (reload) appears in the next turn\'s prompt', () => {
    let servers: McpServerEntry[] = [];
    const listeners: Array<() => void> = [];
    const hub = { servers: () => servers, onDidChange: (l: () => void) => (listeners.push(l), () => undefined) };
    const prompt = withMcpServers({ stable: 'S', dynamic: 'Workspace: /ws' }, hub);
    assert.deepEqual(prompt, { stable: 'S', dynamic: 'Workspace: /ws' });
    servers = [entry('memory', { command: 'mcp-server-memory' })];
    listeners.forEach((l) => l());
    assert.match(prompt.dynamic, /^Workspace: \/ws\n\n## MCP servers[^\n]+\n- memory: mcp-server-memory$/);
    servers = [];
    listeners.forEach((l) => l());
    assert.equal(prompt.dynamic, 'Workspace: /ws');
  });
});
