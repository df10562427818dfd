// The core's layers, lowest first, and the import graph that checks them. A file may import its own
// layer and the layers below it; an import upward, an import cycle or a folder in no layer fails the lint.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Folders of src/core by layer, lowest first; `.` is the files directly in src/core (the contracts). */
export const CORE_LAYERS = [
  ['.'], // contracts: messages, the UI and host ports, tool results, templates
  ['config', 'files'], // settings and their schemas; atomic writes, locks, real paths, the workspace boundary
  ['llm', 'packages', 'trust'], // providers and model calls; on-demand packages; workspace trust records
  ['syntax', 'shell', 'process', 'sandbox'], // parsers, shell reading, processes and their containment
  ['images', 'todos', 'web'], // what tools build on
  ['tools', 'subagents'], // the tools, their registry and lifecycle contract
  ['safety', 'hooks', 'undo', 'mcp', 'context', 'memory', 'mentions', 'skills'], // around the tool calls and the context
  ['agent'], // the loop
  ['session'], // a conversation over time: store, recorder, titles
  ['commands'], // slash commands
];

const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function* sources(dir) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) yield* sources(full);
    else if (/\.ts$/.test(name)) yield full;
  }
}

/** Every relative import between files of `dir`, as [from, to] paths relative to it. */
export function importGraph(dir) {
  const edges = [];
  for (const file of sources(dir)) {
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolve(dirname(file), match[1] ?? match[2]).replace(/\.js$/, '');
      const found = [`${target}.ts`, join(target, 'index.ts')].find((candidate) => existsSync(candidate));
      if (found && found.startsWith(dir)) edges.push([relative(dir, file), relative(dir, found)]);
    }
  }
  return edges;
}

/** The import cycles (strongly connected sets of more than one file), by Tarjan's algorithm. */
export function importCycles(edges) {
  const next = new Map();
  for (const [from, to] of edges) {
    if (!next.has(from)) next.set(from, []);
    if (!next.has(to)) next.set(to, []);
    next.get(from).push(to);
  }
  const index = new Map(), low = new Map(), stack = [], onStack = new Set(), cycles = [];
  const visit = (v) => {
    index.set(v, index.size);
    low.set(v, index.get(v));
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)) {
      if (!index.has(w)) visit(w), low.set(v, Math.min(low.get(v), low.get(w)));
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const set = [];
    let w;
    do set.push((w = stack.pop())), onStack.delete(w);
    while (w !== v);
    if (set.length > 1 || next.get(v).includes(v)) cycles.push(set.sort());
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

const folderOf = (file) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '.');

/** Checks `dir` against `layers`: the upward imports, the cycles, and the folders no layer names. */
export function checkLayers(dir, layers = CORE_LAYERS) {
  const rank = new Map(layers.flatMap((folders, i) => folders.map((folder) => [folder, i])));
  const edges = importGraph(dir);
  const folders = new Set([...sources(dir)].map((file) => folderOf(relative(dir, file))));
  return {
    imports: edges.length,
    unplaced: [...folders].filter((folder) => !rank.has(folder)).sort(),
    upward: edges.filter(([from, to]) => rank.get(folderOf(to)) > rank.get(folderOf(from))),
    cycles: importCycles(edges),
  };
}
