import { BlockList, isIP } from 'node:net';
import { dnsPromises } from '../lazy-builtins';
import { ToolError } from '../tool-result';
import { webText } from './web-texts';

/**
 * Addresses the web tools never reach. Link-local space is where clouds serve instance metadata
 * (169.254.169.254 hands out the machine's credentials to whoever asks), so a page, a redirect or
 * a search result must not make the agent read it. Loopback and private LAN addresses stay
 * allowed: reading a local dev server is what people use fetch_url and the screenshots for.
 */
// Built on first use: a session that reads no web page never needs them.
let linkLocal: BlockList | undefined;
const linkLocalSpace = (): BlockList => {
  if (!linkLocal) {
    linkLocal = new BlockList();
    linkLocal.addSubnet('169.254.0.0', 16, 'ipv4');
    linkLocal.addSubnet('fe80::', 10, 'ipv6');
  }
  return linkLocal;
};

/** Metadata services outside link-local space: AWS over IPv6, Alibaba Cloud. */
let metadata: BlockList | undefined;
const metadataAddresses = (): BlockList => {
  if (!metadata) {
    metadata = new BlockList();
    metadata.addAddress('fd00:ec2::254', 'ipv6');
    metadata.addAddress('100.100.100.200', 'ipv4');
  }
  return metadata;
};

/** Names of metadata services (GCP's resolve to 169.254.169.254 there, but not everywhere). */
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.goog']);

/** The addresses a host name resolves to ([] when it does not: the request itself reports that). */
export type HostLookup = (host: string) => Promise<string[]>;

export const systemLookup: HostLookup = async (host) => {
  try {
    return (await dnsPromises().lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return [];
  }
};

/** Why an IP address is off limits (a template section), or undefined when it may be reached. */
export function forbiddenAddress(address: string): 'what_link_local' | 'what_metadata' | undefined {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(ip);
  if (family === 0) return undefined;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (metadataAddresses().check(ip, type)) return 'what_metadata';
  if (linkLocalSpace().check(ip, type)) return 'what_link_local';
  return undefined;
}

/**
 * Refuses (a `permission` ToolError) a URL whose host is, names or resolves to a forbidden address.
 * Called before every request and every redirect hop. The request resolves the name again, so a
 * DNS server that answers differently the second time (rebinding) is not caught here; the checks
 * on redirects and in the browser still keep ordinary pages from steering the agent there.
 */
export async function assertReachable(url: URL, lookup: HostLookup = systemLookup): Promise<void> {
  const refusal = await refusalFor(url, lookup);
  if (refusal) throw refusal;
}

/** Why a host is off limits: what it is and, for a name, the address it resolves to. */
export interface HostVerdict {
  what: 'what_link_local' | 'what_metadata';
  address?: string;
}

/** The verdict on a host (a name, or an IP literal with or without brackets); undefined: allowed. */
export async function checkHost(hostname: string, lookup: HostLookup = systemLookup): Promise<HostVerdict | undefined> {
  const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (METADATA_HOSTS.has(host)) return { what: 'what_metadata' };
  if (isIP(host)) {
    const what = forbiddenAddress(host);
    return what && { what };
  }
  for (const address of await lookup(host)) {
    const what = forbiddenAddress(address);
    if (what) return { what, address };
  }
  return undefined;
}

/** The permission error for a refused URL. */
export function refusalError(url: URL, verdict: HostVerdict): ToolError {
  const vars = { URL: url.href, HOST: url.hostname, WHAT: webText(verdict.what) };
  return new ToolError('permission', verdict.address ? webText('forbidden_resolved', { ...vars, ADDRESS: verdict.address }) : webText('forbidden_address', vars));
}

/** The refusal for a URL, or undefined; only http(s) and ws(s) hosts are checked (file: has none). */
export async function refusalFor(url: URL, lookup: HostLookup = systemLookup): Promise<ToolError | undefined> {
  if (!/^(?:https?|wss?):$/.test(url.protocol)) return undefined;
  const verdict = await checkHost(url.hostname, lookup);
  return verdict && refusalError(url, verdict);
}
