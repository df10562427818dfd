import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mapMcpResult } from '../../../../src/core/mcp/mcp-result';
import { tempDir } from '../../../helpers/mcp-servers';

// 1×1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const ctx = { toolName: 'mcp__demo__tool' };

describe('MCP tool results as ToolResults', () => {
  it('joins text parts; the summary names the tool and its first line', async () => {
    const r = await mapMcpResult({ content: [{ type: 'text', text: 'Echo: hi' }, { type: 'text', text: 'second' }] }, ctx);
    assert.deepEqual(r, { ok: true, output: 'Echo: hi\nsecond', summary: '✓ mcp__demo__tool: Echo: hi' });
  });

  it('saves an image to the scratch folder and tells the model where, with its type and size', async () => {
    const dir = join(tempDir('media'), 'mcp');
    const r = await mapMcpResult({ content: [{ type: 'text', text: 'Here:' }, { type: 'image', data: PNG, mimeType: 'image/png' }] }, { ...ctx, mediaDir: dir });
    assert.equal(r.ok, true);
    const path = /saved to (\S+\.png)\./.exec(r.output)?.[1];
    assert.ok(path && path.startsWith(dir), r.output);
    assert.ok(existsSync(path));
    assert.deepEqual(readFileSync(path), Buffer.from(PNG, 'base64'));
    assert.match(r.output, /\[Image \(image\/png, 70 B\) saved to /);
    assert.match(r.summary, /Here: \(\+1 image\)/);

    const unsaved = await mapMcpResult({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }, ctx);
    assert.match(unsaved.output, /Image \(image\/png, 70 B\) not shown: tool results carry only text, and it could not be saved \(this session has no scratch folder\)/);
  });

  it('inlines embedded text resources; binary ones and resource links become one-line notes', async () => {
    const r = await mapMcpResult(
      {
        content: [
          { type: 'resource', resource: { uri: 'demo://text/1', mimeType: 'text/plain', text: 'Resource 1 body' } },
          { type: 'resource', resource: { uri: 'demo://blob/2', mimeType: 'application/gzip', blob: Buffer.alloc(2048).toString('base64') } },
          { type: 'resource_link', uri: 'file:///srv/report.pdf', name: 'report', mimeType: 'application/pdf' },
        ],
      },
      ctx,
    );
    assert.equal(r.output, ['Resource 1 body', '[Binary resource demo://blob/2 (application/gzip, 2.0 KB); not shown.]', '[Resource report: file:///srv/report.pdf (application/pdf)]'].join('\n'));
  });

  it('isError is a failed call the model reads', async () => {
    const r = await mapMcpResult({ isError: true, content: [{ type: 'text', text: 'Tool nonexistent not found' }] }, ctx);
    assert.equal(r.ok, false);
    assert.equal(r.errorKind, 'other');
    assert.equal(r.output, 'Error (other): Tool nonexistent not found');
  });

  it('structured content stands in for missing text; nothing at all says so', async () => {
    const structured = await mapMcpResult({ content: [], structuredContent: { temperature: 21 } }, ctx);
    assert.deepEqual(JSON.parse(structured.output), { temperature: 21 });
    const empty = await mapMcpResult({ content: [] }, ctx);
    assert.equal(empty.output, '(The tool returned no content.)');
    assert.equal(empty.ok, true);
  });
});
