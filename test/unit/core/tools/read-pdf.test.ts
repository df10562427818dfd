import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBuiltinRegistry } from '../../../../src/core/tools/builtin-tools';
import type { ToolResult } from '../../../../src/core/tools/tool';
import { makePdf } from '../../../helpers/pdf';
import { toolContext } from '../../../helpers/tool-context';

describe('read_pdf', () => {
  let root: string;
  const registry = createBuiltinRegistry();
  const read = (args: unknown): Promise<ToolResult> =>
    registry.execute({ id: 'c1', name: 'read_pdf', arguments: JSON.stringify(args) }, toolContext({ workspaceRoot: root }));

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'opendev-pdf-'));
    const pages = [1, 2, 3, 4, 5].map((n) => [`Chapter ${n}`, `This is the text of page ${n}.`]);
    writeFileSync(join(root, 'report.pdf'), await makePdf({ pages, title: 'Quarterly Report', author: 'Ada Lovelace', created: new Date('2024-03-01T10:00:00Z') }));
    const good = await makePdf({ pages: [['intact']] });
    writeFileSync(join(root, 'truncated.pdf'), good.subarray(0, 120));
    writeFileSync(join(root, 'page.pdf'), '<!doctype html><html><body>Not a PDF</body></html>');
    writeFileSync(join(root, 'locked.pdf'), await makePdf({ pages: [['secret']], encrypted: true }));
    // ~2,400 chars a page: 40 pages do not fit in one output.
    const long = Array.from({ length: 40 }, (_, p) => Array.from({ length: 40 }, (_, l) => `p${p + 1} line ${l + 1} ${'lorem ipsum dolor sit amet '.repeat(2)}`));
    writeFileSync(join(root, 'long.pdf'), await makePdf({ pages: long }));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('reads every page with page markers and the metadata', async () => {
    const r = await read({ path: 'report.pdf' });
    assert.equal(r.ok, true, r.output);
    assert.match(r.output, /^PDF: report\.pdf \(5 pages\)\nTitle: Quarterly Report\nAuthor: Ada Lovelace\nCreated: 2024-03-01\n/);
    for (const n of [1, 2, 3, 4, 5]) assert.match(r.output, new RegExp(`--- Page ${n} ---\\nChapter ${n}\\s+This is the text of page ${n}\\.`));
    assert.ok(r.output.indexOf('--- Page 2 ---') < r.output.indexOf('--- Page 3 ---'));
    assert.match(r.summary, /^✓ Read report\.pdf: pages 1-5 of 5 \(/);
  });

  it('reads only the pages asked for ("1-2,4"), in order, and says which were shown', async () => {
    const r = await read({ path: 'report.pdf', pages: '4, 1-2' });
    assert.equal(r.ok, true, r.output);
    assert.match(r.output, /Pages shown: 1-2, 4/);
    assert.deepEqual([...r.output.matchAll(/--- Page (\d) ---/g)].map((m) => m[1]), ['1', '2', '4']);
    assert.doesNotMatch(r.output, /page 3\.|page 5\./);
    assert.match(r.summary, /pages 1-2, 4 of 5/);
  });

  it('refuses malformed and reversed ranges before opening the file, and out-of-range pages after', async () => {
    const malformed = await read({ path: 'report.pdf', pages: 'first three' });
    assert.equal(malformed.ok, false);
    assert.match(malformed.output, /pages must look like "1-3,5"/);
    const reversed = await read({ path: 'report.pdf', pages: '5-3' });
    assert.match(reversed.output, /from the lower page to the higher/);
    const zero = await read({ path: 'report.pdf', pages: '0' });
    assert.match(zero.output, /pages start at 1/);
    const outside = await read({ path: 'report.pdf', pages: '2,6-9' });
    assert.equal(outside.ok, false);
    assert.match(outside.output, /pages 6-9 out of range: the PDF has 5 pages/);
  });

  it('caps a long document at a page boundary and names the call that reads the rest', async () => {
    const r = await read({ path: 'long.pdf' });
    assert.equal(r.ok, true, r.output);
    assert.ok(r.output.length <= 62_000, `output is ${r.output.length} chars`);
    const shown = [...r.output.matchAll(/--- Page (\d+) ---/g)].map((m) => Number(m[1]));
    assert.ok(shown.length > 5 && shown.length < 40, `${shown.length} pages shown`);
    const next = shown.length + 1;
    assert.match(r.output, new RegExp(`Output cap reached: pages ${next}-40 not shown\\. Read them with read_pdf and pages "${next}-40"`));
    assert.match(r.summary, new RegExp(`${40 - shown.length} more pages not shown`));
    const rest = await read({ path: 'long.pdf', pages: `${next}-40` });
    assert.match(rest.output, new RegExp(`--- Page ${next} ---\\np${next} line 1 `));
  });

  it('a damaged PDF, an HTML file named .pdf and an encrypted PDF are clear, typed errors', async () => {
    const truncated = await read({ path: 'truncated.pdf' });
    assert.equal(truncated.ok, false);
    assert.equal(truncated.errorKind, 'other');
    assert.match(truncated.output, /truncated\.pdf is damaged or not a valid PDF/);

    const html = await read({ path: 'page.pdf' });
    assert.equal(html.ok, false);
    assert.match(html.output, /page\.pdf is not a PDF \(it does not start with the %PDF- signature\)/);

    const locked = await read({ path: 'locked.pdf' });
    assert.equal(locked.ok, false);
    assert.equal(locked.errorKind, 'permission');
    assert.match(locked.output, /locked\.pdf is encrypted \(password-protected\)/);
  });

  it('a missing file is not_found and a path outside the workspace is refused', async () => {
    const missing = await read({ path: 'nope.pdf' });
    assert.equal(missing.errorKind, 'not_found');
    const outside = await read({ path: '../elsewhere.pdf' });
    assert.equal(outside.errorKind, 'permission');
  });
});
