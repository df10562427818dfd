// The core's layers, lowest first, and the import graph that checks them. A file may import its own
// layer and the layers below it; an import upward, an import cycle or a folder in no layer fails the lint.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Folders of src/core by layer, lowest first; `.` is the files directly in src/core (the contracts). */
export const CORE_LAYERS = [
  { name: 'contracts', folders: ['.'] }, // messages, the UI and host ports, tool results, templates
  { name: 'settings and files', folders: ['config', 'files'] },
  { name: 'models', folders: ['llm', 'packages', 'trust'] },
  { name: 'processes', folders: ['syntax', 'shell', 'process', 'git', 'sandbox'] },
  { name: 'what tools use', folders: ['images', 'todos', 'web'] },
  { name: 'tools', folders: ['tools', 'subagents'] },
  { name: 'around tool calls and context', folders: ['safety', 'hooks', 'undo', 'mcp', 'context', 'memory', 'mentions', 'skills'] },
  { name: 'the loop', folders: ['agent'] },
  { name: 'sessions', folders: ['session'] },
  { name: 'commands', folders: ['commands'] },
];

/** The line a folder's README.md states its place with (the lint checks it is there, word for word). */
export function layerLine(folder, layers = CORE_LAYERS) {
  const index = layers.findIndex((layer) => layer.folders.includes(folder));
  const name = (f) => (f === '.' ? 'the contracts (`../*.ts`)' : `\`${f}/\``);
  const below = layers.slice(0, index).flatMap((layer) => layer.folders.map(name));
  const peers = layers[index].folders.filter((f) => f !== folder).map(name);
  return `Layer ${index} of ${layers.length - 1} (${layers[index].name}). May import: ${below.join(', ')}${peers.length ? `; in its own layer: ${peers.join(', ')}` : ''}.`;
}

const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** The files below `dir` whose names match `pattern` (default: TypeScript sources). */
export function* sources(dir, pattern = /\.ts$/) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) yield* sources(full, pattern);
    else if (pattern.test(name)) yield full;
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
  const rank = new Map(layers.flatMap((layer, i) => layer.folders.map((folder) => [folder, i])));
  const edges = importGraph(dir);
  const folders = new Set([...sources(dir)].map((file) => folderOf(relative(dir, file))));
  return {
    imports: edges.length,
    unplaced: [...folders].filter((folder) => !rank.has(folder)).sort(),
    upward: edges.filter(([from, to]) => rank.get(folderOf(to)) > rank.get(folderOf(from))),
    cycles: importCycles(edges),
  };
}
