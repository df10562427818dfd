// The on-disk models.dev cache (§2.5.4): `<dir>/<provider>.json` holds one provider object exactly as
// models.dev serves it, and `<dir>/.last_sync` the time of the last successful download.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mkdirPrivate, PRIVATE_FILE_MODE } from '../../config/private-files';
import { writeFileAtomic } from '../../files/atomic-write';
import { parseProvider, type ModelsDevCatalogue } from './models-dev';

export const LAST_SYNC_FILE = '.last_sync';

export interface CachedCatalogue {
  catalogue: ModelsDevCatalogue;
  /** Epoch ms of the last sync; undefined when the marker is missing or unreadable (treated as stale). */
  lastSync: number | undefined;
}

/** File names stay inside the cache folder whatever a provider id looks like. */
function fileName(providerId: string): string | undefined {
  return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(providerId) ? `${providerId}.json` : undefined;
}

export class ProviderCache {
  constructor(readonly dir: string) {}

  /** The cached providers, or undefined when there are none (no folder, no readable file). */
  async read(): Promise<CachedCatalogue | undefined> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return undefined;
    }
    const catalogue: ModelsDevCatalogue = {};
    for (const name of names) {
      if (!name.endsWith('.json') || name.startsWith('.')) continue;
      const key = name.slice(0, -'.json'.length);
      try {
        const provider = parseProvider(key, JSON.parse(await readFile(join(this.dir, name), 'utf8')));
        if (provider) catalogue[key] = provider;
      } catch {
        // A corrupt file is skipped; the next sync rewrites it.
      }
    }
    if (Object.keys(catalogue).length === 0) return undefined;
    return { catalogue, lastSync: await this.readLastSync() };
  }

  private async readLastSync(): Promise<number | undefined> {
    try {
      const at = Date.parse((await readFile(join(this.dir, LAST_SYNC_FILE), 'utf8')).trim());
      return Number.isNaN(at) ? undefined : at;
    } catch {
      return undefined;
    }
  }

  /** Writes every provider (atomically: a reader never sees half a file), then the marker. */
  async write(rawProviders: Record<string, unknown>, now: number): Promise<void> {
    await mkdirPrivate(this.dir);
    for (const [id, raw] of Object.entries(rawProviders)) {
      const name = fileName(id);
      if (!name) continue;
      await writeFileAtomic(join(this.dir, name), JSON.stringify(raw), { mode: PRIVATE_FILE_MODE });
    }
    await writeFileAtomic(join(this.dir, LAST_SYNC_FILE), new Date(now).toISOString() + '\n', { mode: PRIVATE_FILE_MODE });
  }
}
