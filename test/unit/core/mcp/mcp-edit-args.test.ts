import * as assert from 'node:assert/strict';
import { parseMcpAddArgs, parseMcpNameArgs } from '../../../../src/core/mcp/mcp-edit-args';
import { splitQuotedWords as splitWords } from '../../../../src/core/mcp/typed-words';

describe('MCP add arguments', () => {
  it('takes the words after --command as the command line, our options anywhere, and everything after -- verbatim', () => {
    assert.deepEqual(parseMcpAddArgs(['fs', '--command', 'npx', '-y', '@modelcontextprotocol/server-filesystem', '/tmp', '--env', 'A=1', '--project']), {
      name: 'fs',
      scope: 'project',
      config: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { A: '1' } },
    });
    assert.deepEqual(parseMcpAddArgs(['tool', '--env=B=x=y', '--command=python', 'server.py', '--', '--env', 'not-ours']), {
      name: 'tool',
      scope: 'user',
      config: { command: 'python', args: ['server.py', '--env', 'not-ours'], env: { B: 'x=y' } },
    });
  });

  it('takes a URL with headers (K=V or K: V) and a description', () => {
    assert.deepEqual(parseMcpAddArgs(['web', '--url', 'http://127.0.0.1:3000/mcp', '--header', 'X-Key=1', '--header', 'Authorization: Bearer t', '--description', 'Docs search']), {
      name: 'web',
      scope: 'user',
      config: { url: 'http://127.0.0.1:3000/mcp', headers: { 'X-Key': '1', Authorization: 'Bearer t' }, description: 'Docs search' },
    });
    assert.deepEqual(parseMcpAddArgs(['env-url', '--url', '${DOCS_URL}']), { name: 'env-url', scope: 'user', config: { url: '${DOCS_URL}' } });
  });

  it('says what is wrong, in words', () => {
    const problem = (words: string[]) => {
      const parsed = parseMcpAddArgs(words);
      return 'problem' in parsed ? parsed.problem : 'no problem';
    };
    assert.match(problem([]), /Name the server first/);
    assert.match(problem(['my server', '--command', 'x']), /letters, digits/);
    assert.match(problem(['x']), /either --command .* or --url/);
    assert.match(problem(['x', '--command', 'a', '--url', 'http://h/']), /either --command/);
    assert.match(problem(['x', '--url', 'ftp://h/']), /not an http\(s\) address/);
    assert.match(problem(['x', '--url', 'http://h/', '--env', 'A=1']), /--env is for servers started with --command/);
    assert.match(problem(['x', '--command', 'a', '--header', 'A=1']), /--header is for servers reached with --url/);
    assert.match(problem(['x', '--command', 'a', '--env', 'novalue']), /--env takes KEY=VALUE/);
    assert.match(problem(['x', '--bogus']), /Unknown option --bogus/);
    assert.match(problem(['x', '--command']), /--command needs the program/);
  });

  it('reads a name with an optional scope for remove, a bare name for enable and disable', () => {
    assert.deepEqual(parseMcpNameArgs('remove', ['memory', '--project']), { name: 'memory', scope: 'project' });
    assert.deepEqual(parseMcpNameArgs('disable', ['memory']), { name: 'memory' });
    assert.ok('problem' in parseMcpNameArgs('enable', ['a', 'b']));
    assert.ok('problem' in parseMcpNameArgs('remove', ['a', '--user', '--project']));
  });

  it('splits a typed line with quotes and backslashes, and reports an open quote', () => {
    assert.deepEqual(splitWords(`add fs --command "my server" 'a b' c\\ d --env X="1 2"`), ['add', 'fs', '--command', 'my server', 'a b', 'c d', '--env', 'X=1 2']);
    assert.deepEqual(splitWords('  '), []);
    assert.deepEqual(splitWords('say ""'), ['say', '']);
    assert.deepEqual(splitWords('add "open'), { problem: 'The quote " is not closed.' });
    // A typed /mcp line is not a shell command: & ; # ( ) are part of the words.
    assert.deepEqual(splitWords('add docs --url http://h/mcp?a=1&b=2;x #frag (v2)'), ['add', 'docs', '--url', 'http://h/mcp?a=1&b=2;x', '#frag', '(v2)']);
  });
});
