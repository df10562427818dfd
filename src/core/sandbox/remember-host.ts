import { updateSettingsFile } from '../config/settings-file-update';
import { isPlainObject } from '../plain-object';
import { DEFAULT_NETWORK_ALLOW } from '../config/sandbox-settings';

/**
 * The "always allow" answer to a blocked host, in the CLI: the host joins `sandbox.network.allow`
 * of the user's settings.json (the built-in list first when the user had none), every other key
 * as the user wrote it. A broken file is left alone and the error says why.
 */
export async function rememberSandboxHost(settingsFile: string, host: string): Promise<void> {
  const problem = await updateSettingsFile(settingsFile, (settings) => {
    const refuse = (what: string) => ({ changed: false as const, refusal: `${settingsFile} cannot be changed: its "${what}" is not ${what.endsWith('allow') ? 'a list' : 'an object'}` });
    const sandbox = settings.sandbox ?? {};
    if (!isPlainObject(sandbox)) return refuse('sandbox');
    const network = sandbox.network ?? {};
    if (!isPlainObject(network)) return refuse('sandbox.network');
    const current = network.allow ?? [...DEFAULT_NETWORK_ALLOW];
    if (!Array.isArray(current)) return refuse('sandbox.network.allow');
    if (current.includes(host)) return { changed: false, refusal: '' };
    settings.sandbox = { ...sandbox, network: { ...network, allow: [...current, host] } };
    return { changed: true };
  });
  if (problem) throw new Error(problem);
}
