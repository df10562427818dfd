import * as assert from 'node:assert/strict';
import { qualifiedToolName, serverOfToolName } from '../../../../src/core/mcp/mcp-names';

describe('MCP tool names', () => {
  it('are mcp__<server>__<tool>, with characters providers refuse replaced', () => {
    assert.equal(qualifiedToolName('memory', 'read_graph'), 'mcp__memory__read_graph');
    assert.equal(qualifiedToolName('everything', 'get-tiny-image'), 'mcp__everything__get-tiny-image');
    assert.equal(qualifiedToolName('docs', 'search.v2 (beta)'), 'mcp__docs__search_v2__beta_');
  });

  it('stay within 64 characters and apart when long names share a start', () => {
    const a = qualifiedToolName('a-rather-long-server-name', 'list_all_the_repository_pull_requests_with_reviews');
    const b = qualifiedToolName('a-rather-long-server-name', 'list_all_the_repository_pull_requests_with_comments');
    assert.ok(a.length <= 64 && b.length <= 64, `${a} / ${b}`);
    assert.notEqual(a, b);
    assert.match(a, /^mcp__a-rather-long-server-name__list_all/);
    assert.match(a, /^[a-zA-Z0-9_-]+$/);
  });

  it('find their server, the longest configured name first (server names may contain "__")', () => {
    assert.equal(serverOfToolName('mcp__my__db__query', ['my', 'my__db']), 'my__db');
    assert.equal(serverOfToolName('mcp__my__query', ['my', 'my__db']), 'my');
    assert.equal(serverOfToolName('mcp__other__x', ['my']), undefined);
    assert.equal(serverOfToolName('read_file', ['my']), undefined);
  });
});
