// `npm run bench`: builds, then runs every benchmark (bench/<name>/index.ts) or the ones named.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
execFileSync(process.execPath, ['esbuild.config.mjs'], { cwd: root, stdio: 'inherit' });
const wanted = process.argv.slice(2);
const names = readdirSync(join(root, 'bench'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(root, 'bench', d.name, 'index.ts')))
  .map((d) => d.name)
  .filter((name) => wanted.length === 0 || wanted.includes(name));
for (const name of names) {
  const { main } = await import(join(root, 'out', 'bench', name, 'index.js'));
  await main();
}
