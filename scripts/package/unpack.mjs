// Unpacks a .vsix as VS Code installs it: every entry, with the Unix mode the archive records.
import { chmodSync, createWriteStream, mkdirSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';

export async function unpack(vsix, into) {
  const zip = await yauzl.openPromise(vsix);
  for await (const entry of zip.eachEntry()) {
    if (entry.fileName.endsWith('/')) continue;
    const to = join(into, normalize(entry.fileName));
    if (!to.startsWith(into + sep)) throw new Error(`${entry.fileName} would land outside ${into}`);
    mkdirSync(dirname(to), { recursive: true });
    await pipeline(await zip.openReadStreamPromise(entry), createWriteStream(to));
    const mode = (entry.externalFileAttributes >>> 16) & 0o777;
    if (mode && process.platform !== 'win32') chmodSync(to, mode);
  }
}
