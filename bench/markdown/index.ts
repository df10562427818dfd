// Streaming an answer with code blocks into the chat view's markdown renderer (webview/markdown.ts),
// in headless Chromium: the time each delta takes to render and lay out, as the view does it (the
// same element, so unchanged parts and closed, highlighted code blocks keep their nodes) against a
// full rebuild per delta (a fresh element each time: every block highlighted again, from the
// highlight cache). Also the first render of the whole answer (cold: highlight.js compiles each
// language's grammar on first use), another answer (nothing cached) and the same answer again
// (warm cache: an entry scrolled back into view). Medians over a few runs.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { percentile, printTable } from '../stats';

// Browser globals used inside page.evaluate callbacks: this file is typechecked without the DOM lib.
declare const document: any, window: any, performance: any;

const repo = join(__dirname, '../../..');
/** Characters per streamed delta: a few tokens, as providers send them. */
const DELTA_CHARS = 16;

interface Timings {
  deltas: number;
  incremental: number[];
  rebuild: number[];
  cold: number;
  fresh: number;
  warm: number;
}

export async function main(): Promise<void> {
  const esbuild = await import('esbuild');
  // The renderer with highlight.js handed over at once (the view loads it with the first code block).
  const entry = [
    "export { renderMarkdown } from './webview/markdown';",
    "import { useHighlighter } from './webview/code-highlight';",
    "import { hljs } from './webview/highlight-languages';",
    'useHighlighter(hljs);',
  ].join('\n');
  const bundle = await esbuild.build({
    stdin: { contents: entry, resolveDir: repo, loader: 'ts' },
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'markdown',
    platform: 'browser',
    target: 'es2022',
    minify: true,
  });
  const script = bundle.outputFiles[0]!.text;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.OPENDEV_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const answer = longAnswer();
  const runs: Timings[] = [];
  try {
    const count = Number(process.env.OPENDEV_BENCH_MARKDOWN_RUNS) || 5;
    for (let i = 0; i < count; i++) {
      const page = await browser.newPage({ viewport: { width: 400, height: 900 } });
      await page.setContent('<!DOCTYPE html><html><body><main id="view"></main></body></html>');
      await page.addScriptTag({ content: script });
      runs.push(await stream(page, answer));
      await page.close();
    }
  } finally {
    await browser.close();
  }
  const all = (pick: (t: Timings) => number[]) => runs.flatMap(pick);
  const ms = (n: number) => `${n.toFixed(2)} ms`;
  const median = (values: number[]) => percentile(values, 50);
  const inc = all((t) => t.incremental);
  const reb = all((t) => t.rebuild);
  printTable(`markdown: a ${(answer.length / 1000).toFixed(1)} kB answer with ${blockCount(answer)} code blocks streamed in ${runs[0]!.deltas} deltas of ${DELTA_CHARS} chars, ${runs.length} runs (render + layout per delta)`, [
    { metric: 'per delta, as the view renders (unchanged parts kept)', p50: ms(percentile(inc, 50)), p95: ms(percentile(inc, 95)), max: ms(Math.max(...inc)) },
    { metric: 'per delta, rebuilding everything', p50: ms(percentile(reb, 50)), p95: ms(percentile(reb, 95)), max: ms(Math.max(...reb)) },
    { metric: 'whole stream, rebuild ÷ as rendered', p50: `${(median(runs.map((t) => sum(t.rebuild) / sum(t.incremental)))).toFixed(1)}×`, p95: '', max: '' },
    { metric: 'the whole answer at once, cold (grammars compiled on first use)', p50: ms(median(runs.map((t) => t.cold))), p95: '', max: '' },
    { metric: 'another answer at once (grammars ready, nothing cached)', p50: ms(median(runs.map((t) => t.fresh))), p95: '', max: '' },
    { metric: 'the whole answer at once, warm (scrolled back into view)', p50: ms(median(runs.map((t) => t.warm))), p95: '', max: '' },
  ]);
}

async function stream(page: Page, answer: string): Promise<Timings> {
  return page.evaluate(
    ({ text, step }: { text: string; step: number }) => {
      const { renderMarkdown } = window.markdown;
      const view = document.getElementById('view');
      const timed = (fn: () => void) => {
        const t = performance.now();
        fn();
        void view.offsetHeight; // layout, as the transcript measures the entry
        return performance.now() - t;
      };
      const fresh = () => {
        const el = document.createElement('article');
        view.replaceChildren(el);
        return el;
      };
      const cold = timed(() => renderMarkdown(fresh(), text));
      const other = timed(() => renderMarkdown(fresh(), text.replace(/step/g, 'stage')));
      const warm = timed(() => renderMarkdown(fresh(), text));
      const incremental: number[] = [];
      const rebuild: number[] = [];
      const same = fresh();
      for (let end = step; end < text.length + step; end += step) {
        const upTo = text.slice(0, end);
        incremental.push(timed(() => renderMarkdown(same, upTo)));
      }
      for (let end = step; end < text.length + step; end += step) {
        const upTo = text.slice(0, end);
        rebuild.push(timed(() => renderMarkdown(fresh(), upTo)));
      }
      return { deltas: incremental.length, incremental, rebuild, cold, fresh: other, warm };
    },
    { text: answer, step: DELTA_CHARS },
  );
}

/** A long answer as models write them: prose between code blocks in several languages. */
function longAnswer(): string {
  const blocks: Array<[string, (i: number) => string]> = [
    ['ts', (i) => `export function step${i}(input: readonly number[]): number {\n  // keep the running total\n  let total = 0;\n  for (const n of input) total += n * ${i};\n  return total;\n}`],
    ['python', (i) => `def step_${i}(values: list[int]) -> int:\n    """Sum the values."""\n    return sum(v * ${i} for v in values)`],
    ['json', (i) => `{\n  "name": "step-${i}",\n  "enabled": true,\n  "limits": { "max": ${i * 10}, "min": 0 }\n}`],
    ['bash', (i) => `for f in src/*.ts; do\n  echo "checking $f (${i})"\n  grep -n "TODO" "$f" || true\ndone`],
  ];
  const parts: string[] = [];
  for (let i = 0; i < 12; i++) {
    const [language, body] = blocks[i % blocks.length]!;
    const code = Array.from({ length: 3 }, (_, k) => body(i * 3 + k)).join('\n\n');
    parts.push(`### Step ${i + 1}\n\nThis step changes **step ${i + 1}** so that the \`total\` is computed once; the rest stays as it was. It also keeps the tests passing.\n\n\`\`\`${language}\n${code}\n\`\`\`\n`);
  }
  return `${parts.join('\n')}\nThat is all.`;
}

function blockCount(text: string): number {
  return (text.match(/^```\w/gm) ?? []).length;
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
