import { ToolError } from '../tools/tool';

/**
 * A URL the web tools may fetch: http or https only. `file:`, `data:`, `javascript:` and the rest
 * are refused (reading local files is read_file's job, and goes through its own checks).
 */
export function parseWebUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ToolError('other', `"${raw}" is not a valid URL. Give a full http:// or https:// address.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    const hint = url.protocol === 'file:' ? ' Read local files with read_file.' : '';
    throw new ToolError('other', `Only http:// and https:// URLs can be fetched, not ${url.protocol}.${hint}`);
  }
  return url;
}

/** The host without a leading `www.`, for same-site checks and file names. */
export function siteOf(url: URL): string {
  return url.hostname.replace(/^www\./, '').toLowerCase();
}

/** True when `host` is `domain` or one of its subdomains (`docs.python.org` is under `python.org`). */
export function hostMatches(host: string, domain: string): boolean {
  const h = host.toLowerCase().replace(/^www\./, '');
  const d = domain.toLowerCase().trim().replace(/^(?:https?:\/\/)?(?:www\.)?/, '').replace(/\/.*$/, '');
  return d !== '' && (h === d || h.endsWith(`.${d}`));
}
