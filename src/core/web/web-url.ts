import { existsSync, realpathSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ToolError } from '../tool-result';
import { displayPath, isInside, resolveInWorkspace } from '../files/workspace-path';

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

/** What a tool that shows or captures pages was pointed at: a web address or a workspace file. */
export type WebOrFileTarget = { kind: 'web'; url: URL; shown: string } | { kind: 'file'; url: URL; path: string; shown: string };

/**
 * The one rule for tools that take "a URL or a workspace file" (capture_web_screenshot,
 * capture_screenshot, open_browser): an http(s) URL; or a workspace path, given as a path or a
 * `file:` URL, that exists and (symbolic links followed) lies inside the workspace. Every other
 * scheme (ftp:, javascript:, data:…) is refused. `verb` completes "can be …" in the refusal.
 */
export function parseWebOrWorkspaceTarget(raw: string, workspaceRoot: string, verb: string): WebOrFileTarget {
  const text = raw.trim();
  if (/^https?:\/\//i.test(text)) {
    const url = parseWebUrl(text);
    return { kind: 'web', url, shown: url.href };
  }
  let path = text;
  if (/^file:/i.test(text)) {
    try {
      path = fileURLToPath(text);
    } catch {
      throw new ToolError('other', `${raw} is not a valid file: URL.`);
    }
  } else if (/^[a-z][a-z0-9+.-]+:/i.test(text) && !/^[a-z]:[\\/]/i.test(text)) {
    throw new ToolError('other', `Only http(s) URLs and files in the workspace can be ${verb}, not ${text.split(':')[0]}: addresses.`);
  }
  const absolute = resolveInWorkspace(workspaceRoot, path);
  const shown = displayPath(workspaceRoot, absolute);
  if (!existsSync(absolute)) throw new ToolError('not_found', `${shown} does not exist in the workspace. Give an http(s) URL or an existing file.`);
  const real = realpathSync(absolute);
  if (!isInside(realRoot(workspaceRoot), real)) throw new ToolError('permission', `${shown} is a symbolic link to ${real}, outside the workspace.`);
  return { kind: 'file', url: pathToFileURL(absolute), path: absolute, shown };
}

function realRoot(workspaceRoot: string): string {
  try {
    return realpathSync(workspaceRoot);
  } catch {
    return workspaceRoot;
  }
}
