import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The architecture lint's layer check (scripts/layers.mjs), on small trees made for each case. */

const repo = join(__dirname, '../../../..');
interface LayerReport {
  imports: number;
  unplaced: string[];
  upward: [string, string][];
  cycles: string[][];
}
const layersModule = () => import(pathToFileURL(join(repo, 'scripts/layers.mjs')).href) as Promise<{ checkLayers(dir: string, layers?: typeof LAYERS): LayerReport; layerLine(folder: string, layers?: typeof LAYERS): string }>;
const LAYERS = [
  { name: 'contracts', folders: ['.'] },
  { name: 'low', folders: ['low'] },
  { name: 'high', folders: ['high', 'peer'] },
];

describe('architecture lint: layers', () => {
  let dir: string;
  const put = (file: string, text: string) => {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  };
  const check = async () => (await layersModule()).checkLayers(dir, LAYERS);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'opendev-layers-'));
    put('contract.ts', 'export interface Thing { name: string }\n');
    put('low/base.ts', "import type { Thing } from '../contract';\nexport const base = (t: Thing) => t.name;\n");
    put('high/user.ts', "import { base } from '../low/base';\nimport { peer } from '../peer/peer';\nexport const user = () => base({ name: peer });\n");
    put('peer/peer.ts', "export const peer = 'p';\n");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('accepts imports downward and within a layer', async () => {
    const report = await check();
    assert.equal(report.imports, 3);
    assert.deepEqual([report.upward, report.cycles, report.unplaced], [[], [], []]);
  });

  it('reports an import upward, a type-only or dynamic one too, with both files', async () => {
    put('low/up.ts', "import type { user } from '../high/user';\nexport const later = () => import('../high/user');\nexport type U = typeof user;\n");
    put('contract.ts', "export { base } from './low/base';\n");
    const report = await check();
    assert.deepEqual(report.upward.sort(), [['contract.ts', 'low/base.ts'], ['low/up.ts', 'high/user.ts'], ['low/up.ts', 'high/user.ts']]);
  });

  it('reports an import cycle, even inside one folder, as the set of its files', async () => {
    put('high/a.ts', "import { b } from './b';\nexport const a = () => b;\n");
    put('high/b.ts', "import type { a } from './a';\nexport const b: typeof a | 1 = 1;\n");
    assert.deepEqual((await check()).cycles, [['high/a.ts', 'high/b.ts']]);
  });

  it('states a folder\'s place in the line its README must carry', async () => {
    const { layerLine } = await layersModule();
    assert.equal(layerLine('high', LAYERS), 'Layer 2 of 2 (high). May import: the contracts (`../*.ts`), `low/`; in its own layer: `peer/`.');
    assert.equal(layerLine('low', LAYERS), 'Layer 1 of 2 (low). May import: the contracts (`../*.ts`).');
  });

  it('reports a folder that no layer names', async () => {
    put('stray/thing.ts', "export const x = 1;\n");
    assert.deepEqual((await check()).unplaced, ['stray']);
  });

  it('fails npm test\'s lint on the real tree only when a rule breaks: src/core passes today', () => {
    const run = spawnSync(process.execPath, [join(repo, 'scripts/lint.mjs')], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /: 0 upward, 0 cycles/);
  });
});
