// The local model servers a user may already run, looked for on their usual ports when no provider
// is set up yet (the chat's setup card offers the first that answers). Plain Node: no VS Code here.
import { listServerModels } from '../../core/llm/server-models/server-model-list';

/** A local server that answered, with the model the setup card would use (one that calls tools when the server says which do). */
export interface LocalServer {
  name: string;
  baseUrl: string;
  model: string;
}

/**
 * Test seam: the addresses to look at, as `Name=base URL` pairs separated by commas (an empty
 * value looks at none). Tests point it at a fake server on a free port: a fake cannot safely take
 * 11434 or 1234 on a machine that may run the real ones.
 */
export const LOCAL_SERVERS_ENV = 'OPENDEV_LOCAL_SERVERS';

const USUAL: ReadonlyArray<Omit<LocalServer, 'model'>> = [
  { name: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1' },
  { name: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1' },
];

/** A server that is there answers at once; one that is not refuses the connection, so a short limit only bounds a hung port. */
const PROBE_TIMEOUT_MS = 1500;

export function localServerAddresses(env: NodeJS.ProcessEnv = process.env): Array<Omit<LocalServer, 'model'>> {
  const given = env[LOCAL_SERVERS_ENV];
  if (given === undefined) return [...USUAL];
  return given
    .split(',')
    .map((pair) => pair.trim())
    .filter(Boolean)
    .flatMap((pair) => {
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const baseUrl = pair.slice(at + 1).trim();
      return at > 0 && /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//.test(`${baseUrl}/`) ? [{ name, baseUrl }] : [];
    });
}

/** The servers that answer `GET /v1/models` with at least one model, asked in parallel, in the order given. */
export async function probeLocalServers(addresses = localServerAddresses(), timeoutMs = PROBE_TIMEOUT_MS): Promise<LocalServer[]> {
  const found = await Promise.all(
    addresses.map(async ({ name, baseUrl }) => {
      try {
        const { models } = await listServerModels({ baseUrl }, AbortSignal.timeout(timeoutMs));
        const model = models.find((m) => m.facts?.toolCalls !== false) ?? models[0];
        return model ? { name, baseUrl, model: model.id } : undefined;
      } catch {
        return undefined; // nothing there
      }
    }),
  );
  return found.filter((s): s is LocalServer => s !== undefined);
}
