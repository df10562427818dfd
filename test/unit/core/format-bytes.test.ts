import * as assert from 'node:assert/strict';
import { formatBytes } from '../../../src/core/format-bytes';
import { byteSize } from '../../../src/core/mcp/mcp-texts';

describe('formatBytes', () => {
  it('says bytes, then KB, MB and GB with one decimal', () => {
    assert.equal(formatBytes(0), '0 B');
    assert.equal(formatBytes(1023), '1023 B');
    assert.equal(formatBytes(1024), '1.0 KB');
    assert.equal(formatBytes(150_000), '146.5 KB');
    assert.equal(formatBytes(5 * 1024 * 1024), '5.0 MB');
    assert.equal(formatBytes(50 * 1024 * 1024), '50.0 MB');
    assert.equal(formatBytes(3 * 1024 ** 3), '3.0 GB');
    assert.equal(formatBytes(5 * 1024 ** 4), '5120.0 GB', 'GB is the largest unit');
  });

  it('is the one formatter: MCP notes use it too', () => {
    assert.equal(byteSize, formatBytes);
  });
});
