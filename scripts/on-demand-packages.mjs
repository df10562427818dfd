// The runtime packages the .vsix leaves out: only an optional feature needs them (the browser tools,
// read_pdf), and they are the heaviest pure-JS parts (compressed: playwright-core 1.3 MiB, unpdf 0.5).
// The extension downloads one from the npm registry the first time its feature is used
// (src/core/packages/), at exactly the version and sha512 of package-lock.json, which the build
// compiles into the bundles as OPENDEV_PACKAGE_PINS. The CLI is installed from npm with its
// dependencies, so it loads them from node_modules, as do the tests and a development checkout.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ON_DEMAND_PACKAGES = ['playwright-core', 'unpdf'];

/** `{ name: { version, integrity } }` of each on-demand package, from `root`'s package-lock.json. */
export function packagePins(root) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  return Object.fromEntries(
    ON_DEMAND_PACKAGES.map((name) => {
      const entry = lock.packages?.[`node_modules/${name}`];
      if (!entry?.version || !/^sha512-/.test(entry.integrity ?? '')) throw new Error(`package-lock.json pins no version and sha512 integrity for ${name} (npm install)`);
      return [name, { version: entry.version, integrity: entry.integrity }];
    }),
  );
}
