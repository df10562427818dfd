// Architecture lint: src/core is a library with two hosts, so nothing below it may import `vscode`
// or reach into a host folder, and inside it imports run one way (scripts/layers.mjs). Exits 1 and
// lists every offending line.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { existsSync } from 'node:fs';
import { checkLayers, CORE_LAYERS, layerLine, sources } from './layers.mjs';

const root = new URL('..', import.meta.url).pathname;
const rules = [
  { dir: 'src/core', banned: /(?:from\s+|require\(\s*|import\(\s*)['"](vscode|\.\.?\/.*\/(?:vscode|cli|terminal-ui)\/[^'"]*)['"]/, why: 'src/core must not import vscode or a host folder' },
  { dir: 'src/wording', banned: /(?:from\s+|require\(\s*|import\(\s*)['"](vscode|node:[^'"]+|\.\.?\/.*\/(?:vscode|cli|terminal-ui)\/[^'"]*)['"]/, why: 'src/wording is what every front end says: no vscode, no Node modules, no front end' },
  { dir: 'src/shared', banned: /(?:from\s+|require\(\s*)['"](vscode|node:[^'"]+)['"]/, why: 'src/shared is loaded by the webview too: no vscode, no Node modules' },
];

let problems = 0;
const problem = (text) => {
  problems++;
  console.error(text);
};
for (const rule of rules) {
  for (const file of sources(join(root, rule.dir), /\.(ts|mts|cts|js)$/)) {
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (rule.banned.test(line)) problem(`${relative(root, file)}:${i + 1}: ${rule.why}\n    ${line.trim()}`);
    });
  }
}

const layers = checkLayers(join(root, 'src/core'));
for (const folder of layers.unplaced) problem(`src/core/${folder}: in no layer; add it to CORE_LAYERS in scripts/layers.mjs`);
for (const [from, to] of layers.upward) problem(`src/core/${from}: imports src/core/${to}, a higher layer (scripts/layers.mjs)`);
for (const cycle of layers.cycles) problem(`import cycle among: ${cycle.map((file) => `src/core/${file}`).join(', ')}`);
for (const folder of CORE_LAYERS.flatMap((layer) => layer.folders).filter((f) => f !== '.')) {
  const readme = join(root, 'src/core', folder, 'README.md');
  if (!existsSync(readme)) problem(`src/core/${folder}/README.md: missing (what lives there, and its layer line: "${layerLine(folder)}")`);
  else if (!readFileSync(readme, 'utf8').includes(layerLine(folder))) problem(`src/core/${folder}/README.md: its layer line is not "${layerLine(folder)}"`);
}
console.log(`lint: src/core has ${layers.imports} imports between its files: ${layers.upward.length} upward, ${layers.cycles.length} cycles`);

if (problems > 0) {
  console.error(`lint: ${problems} problem(s)`);
  process.exit(1);
}
console.log('lint: ok (layers run one way, no vscode imports under src/core, src/wording stays below the front ends, src/shared stays browser-safe)');
