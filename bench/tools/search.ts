// Text-search time of the search tool on a large real tree, relative to running ripgrep directly
// with the same pattern (`rg -n -H -C2 --smart-case`, output drained through a pipe as a caller
// would read it). Target: within 1.3×. A second column runs rg with the tool's own flags (which
// bound long lines with --max-columns), so the tool's own overhead shows too. The tree is the VS Code server install the test bench downloads (≈6,000
// files, 300 MB, minified bundles included) when it is there, else the repository's node_modules.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { findRipgrep } from '../../src/core/process/ripgrep-path';
import { searchTool } from '../../src/core/tools/search';
import { textSearchArgs } from '../../src/core/tools/search/ripgrep';
import { toolContext } from '../../test/helpers/tool-context';
import { percentile, printTable } from '../stats';

const RUNS = 10;
const PATTERNS = [
  { name: 'rare identifier', pattern: 'createDecorator' },
  { name: 'regex', pattern: 'function\\s+\\w+Provider\\(' },
  { name: 'common word', pattern: 'export' },
];

function benchTree(): string {
  const vscodeServer = join(homedir(), '.cache/opendev/vscode-server-4.99.4/install');
  return existsSync(vscodeServer) ? vscodeServer : join(__dirname, '../../../node_modules');
}


/** ripgrep run directly with the pattern, its output read to the end. */
function runRg(rg: string, root: string, pattern: string, flags: 'plain' | 'tool'): Promise<number> {
  const args = textSearchArgs({ pattern, contextLines: 2, caseMode: 'smart', maxResults: 50 }, flags, ['.']);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(rg, args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.on('data', () => undefined);
    child.on('error', reject);
    child.on('close', () => resolve(performance.now() - started));
  });
}

async function runTool(root: string, pattern: string): Promise<{ ms: number; summary: string }> {
  const started = performance.now();
  const result = await searchTool.run({ pattern }, toolContext({ workspaceRoot: root }));
  return { ms: performance.now() - started, summary: result.summary };
}

export async function searchBench(): Promise<Array<Record<string, string>>> {
  const rg = findRipgrep();
  const root = benchTree();
  if (!rg) return [{ pattern: '(skipped)', note: 'ripgrep is not installed: nothing to compare with' }];
  const rows: Array<Record<string, string>> = [];
  for (const { name, pattern } of PATTERNS) {
    await runRg(rg, root, pattern, 'plain'); // warm the page cache for all three
    await runTool(root, pattern);
    const direct: number[] = [];
    const sameFlags: number[] = [];
    const tool: number[] = [];
    let summary = '';
    for (let i = 0; i < RUNS; i++) {
      direct.push(await runRg(rg, root, pattern, 'plain'));
      sameFlags.push(await runRg(rg, root, pattern, 'tool'));
      const run = await runTool(root, pattern);
      tool.push(run.ms);
      summary = run.summary;
    }
    const rgMedian = percentile(direct, 50);
    const toolMedian = percentile(tool, 50);
    const ratio = toolMedian / rgMedian;
    rows.push({
      pattern: `${name}: ${pattern}`,
      result: summary.replace(/^✓ /, ''),
      'rg direct p50 (ms)': rgMedian.toFixed(0),
      "rg, tool's flags p50 (ms)": percentile(sameFlags, 50).toFixed(0),
      'search tool p50 (ms)': toolMedian.toFixed(0),
      ratio: `${ratio.toFixed(2)}×`,
      'target ≤1.3×': ratio <= 1.3 ? 'yes' : 'NO',
    });
  }
  rows.push({ pattern: `tree: ${root}`, result: `${RUNS} runs each, medians` });
  return rows;
}

if (require.main === module) {
  void searchBench().then((rows) => printTable('search: text search vs ripgrep directly', rows));
}
