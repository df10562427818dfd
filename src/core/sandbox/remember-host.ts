import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { readSettingsFile } from '../config/settings-file';
import { isPlainObject, NEW_FILE_MODE } from '../mcp/mcp-settings-file';
import { inTurn } from '../session/file-lock';
import { writeFileAtomic } from '../tools/edit/atomic-write';
import { DEFAULT_NETWORK_ALLOW } from './sandbox-settings';

/**
 * The "always allow" answer to a blocked host, in the CLI: the host joins `sandbox.network.allow`
 * of the user's settings.json (the built-in list first when the user had none), every other key
 * as the user wrote it. A broken file is left alone and the error says why.
 */
export function rememberSandboxHost(settingsFile: string, host: string): Promise<void> {
  return inTurn(settingsFile, async () => {
    const read = readSettingsFile(settingsFile);
    if (read.status !== 'missing' && read.status !== 'ok') throw new Error(`${settingsFile} cannot be changed: ${read.problem}`);
    const settings = read.status === 'ok' ? read.settings : {};
    const sandbox = settings.sandbox ?? {};
    if (!isPlainObject(sandbox)) throw new Error(`its "sandbox" is not an object`);
    const network = sandbox.network ?? {};
    if (!isPlainObject(network)) throw new Error(`its "sandbox.network" is not an object`);
    const current = network.allow ?? [...DEFAULT_NETWORK_ALLOW];
    if (!Array.isArray(current)) throw new Error(`its "sandbox.network.allow" is not a list`);
    if (current.includes(host)) return;
    settings.sandbox = { ...sandbox, network: { ...network, allow: [...current, host] } };
    await mkdir(dirname(settingsFile), { recursive: true });
    const mode = await stat(settingsFile).then((s) => s.mode & 0o777, () => NEW_FILE_MODE);
    await writeFileAtomic(settingsFile, `${JSON.stringify(settings, null, 2)}\n`, { mode });
  });
}
