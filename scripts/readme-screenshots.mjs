// `npm run screenshots`: the README's pictures, from the last e2e run (`node test/run.mjs e2e` takes
// them as test/e2e/screenshots/readme-*.png) to docs/screenshots/, where the README shows them.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const from = join(root, 'test', 'e2e', 'screenshots');
const to = join(root, 'docs', 'screenshots');
const shots = readdirSync(from, { withFileTypes: true }).filter((f) => f.isFile() && /^readme-.+\.png$/.test(f.name));
if (shots.length === 0) {
  console.error('No README screenshots in test/e2e/screenshots: run `node test/run.mjs e2e` first.');
  process.exit(1);
}
mkdirSync(to, { recursive: true });
for (const shot of shots) {
  copyFileSync(join(from, shot.name), join(to, shot.name.replace(/^readme-/, '')));
  console.log(`docs/screenshots/${shot.name.replace(/^readme-/, '')}`);
}
