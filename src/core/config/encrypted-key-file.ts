import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { readFile, mkdir } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { dirname } from 'node:path';
import * as z from 'zod';
import { writeFileAtomic } from '../files/atomic-write';

/**
 * API keys kept in a file, each sealed with AES-256-GCM: the fallback for a host whose own secret
 * storage refuses to keep them (a web VS Code whose server does not mint the browser's storage key).
 *
 * The file key is derived (scrypt) from machine-local material that is not in the file: this
 * machine's id, the user and the host name, plus a random salt that is. Copied to another machine
 * or read by another user the file opens to nothing; it does not protect against this user on this
 * machine, which is why it is only a fallback and the user is told where the key went. Each entry's
 * name is authenticated with it (GCM's additional data), so entries cannot be swapped, and a changed
 * byte anywhere makes that entry unreadable instead of wrong.
 */
const SealedEntry = z.object({ iv: z.string(), tag: z.string(), data: z.string() });
const KeyFileContent = z.object({ version: z.literal(1), salt: z.string(), entries: z.record(z.string(), SealedEntry) });
type KeyFileContent = z.infer<typeof KeyFileContent>;

/** Why an entry could not be read back (the file was changed, or belongs to another machine or user). */
export class KeyFileTamperedError extends Error {
  constructor(name: string) {
    super(`the stored value of ${name} could not be decrypted: the key file was changed, or was written on another machine or by another user`);
    this.name = 'KeyFileTamperedError';
  }
}

export interface EncryptedKeyFileOptions {
  /** What ties the file key to this machine and user; tests pass their own. */
  machineMaterial?: () => string;
}

export class EncryptedKeyFile {
  private readonly material: () => string;
  /** Writes go one after the other: two stores at once must not lose one of them. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly keys = new Map<string, Buffer>();

  constructor(readonly file: string, options: EncryptedKeyFileOptions = {}) {
    this.material = options.machineMaterial ?? defaultMachineMaterial;
  }

  /** The value stored under `name`; undefined when there is none. Throws KeyFileTamperedError when it cannot be opened. */
  async get(name: string): Promise<string | undefined> {
    const content = await this.read();
    const entry = content?.entries[name];
    if (!content || !entry) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key(content.salt), Buffer.from(entry.iv, 'base64'));
      decipher.setAAD(Buffer.from(name, 'utf8'));
      decipher.setAuthTag(Buffer.from(entry.tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(entry.data, 'base64')), decipher.final()]).toString('utf8');
    } catch {
      throw new KeyFileTamperedError(name);
    }
  }

  async store(name: string, value: string): Promise<void> {
    await this.update((content) => {
      // A fresh IV for every seal: GCM must never reuse one under the same key.
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', this.key(content.salt), iv);
      cipher.setAAD(Buffer.from(name, 'utf8'));
      const data = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
      content.entries[name] = { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
    });
  }

  async delete(name: string): Promise<void> {
    if (!(await this.read())?.entries[name]) return;
    await this.update((content) => {
      delete content.entries[name];
    });
  }

  private update(change: (content: KeyFileContent) => void): Promise<void> {
    const next = this.queue.then(async () => {
      const content = (await this.read()) ?? { version: 1 as const, salt: randomBytes(16).toString('base64'), entries: {} };
      change(content);
      await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
      await writeFileAtomic(this.file, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The file's content; undefined when absent or not ours (then a store starts it over). */
  private async read(): Promise<KeyFileContent | undefined> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch {
      return undefined;
    }
    try {
      const parsed = KeyFileContent.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  /** Derived once per salt: scrypt is slow on purpose. */
  private key(salt: string): Buffer {
    let key = this.keys.get(salt);
    if (!key) this.keys.set(salt, (key = scryptSync(this.material(), Buffer.from(salt, 'base64'), 32)));
    return key;
  }
}

/** This machine's id (systemd/dbus; absent elsewhere), the user and the host name. */
function defaultMachineMaterial(): string {
  let machineId = '';
  for (const file of ['/etc/machine-id', '/var/lib/dbus/machine-id']) {
    try {
      machineId = readFileSync(file, 'utf8').trim();
      if (machineId) break;
    } catch { /* not on this system */ }
  }
  let user = '';
  try {
    const info = userInfo();
    user = `${info.username}:${info.uid}:${info.homedir}`;
  } catch { /* no passwd entry */ }
  return ['opendev-key-file-v1', machineId, user, hostname()].join('\n');
}
