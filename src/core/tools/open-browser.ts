import { existsSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { parseWebUrl } from '../web/web-url';
import { ToolError, type Tool } from './tool';
import { displayPath, resolveInWorkspace } from './workspace-path';

/**
 * Local files a browser shows rather than runs: an opener hands other files (scripts, .desktop
 * entries, executables) to whatever program they name, which would run code on the user's machine.
 */
const VIEWABLE = new Set(['.html', '.htm', '.xhtml', '.svg', '.pdf', '.png', '.jpg', '.jpeg', '.gif', '.webp', '.txt', '.md', '.json']);

const schema = z.object({
  url: z.string().min(1).describe('http(s) URL, or a workspace file (HTML, PDF, image).'),
});

/**
 * open_browser: shows a page or a workspace file in the user's own browser, through the host
 * (VS Code's openExternal, the system opener in the CLI). It acts on the user's machine, so it is
 * not read-only: the approval step asks for it (except in Auto) and plan mode refuses it.
 */
export const openBrowserTool: Tool<typeof schema> = {
  name: 'open_browser',
  category: 'web',
  readOnly: false,
  schema,
  async run(args, ctx) {
    const target = openTarget(args.url, ctx.workspaceRoot);
    const open = ctx.host?.openExternal;
    if (!open) throw new ToolError('other', `This host cannot open a browser. Give the user the address instead: ${target.shown}`);
    if (!(await open(target.url))) {
      throw new ToolError('other', `Nothing could open ${target.shown} (no browser or system opener answered). Give the user the address to open themselves.`);
    }
    return { ok: true, output: `Opened ${target.shown} in the user's browser.`, summary: `✓ opened ${target.shown}` };
  },
};

function openTarget(raw: string, workspaceRoot: string): { url: string; shown: string } {
  const text = raw.trim();
  if (/^https?:\/\//i.test(text)) {
    const url = parseWebUrl(text);
    return { url: url.href, shown: url.href };
  }
  let path = text;
  if (/^file:/i.test(text)) {
    try {
      path = fileURLToPath(text);
    } catch {
      throw new ToolError('other', `${raw} is not a valid file: URL.`);
    }
  } else if (/^[a-z][a-z0-9+.-]+:/i.test(text) && !/^[a-z]:[\\/]/i.test(text)) {
    throw new ToolError('other', `open_browser opens http(s) URLs and files in the workspace, not ${text.split(':')[0]}: addresses.`);
  }
  const absolute = resolveInWorkspace(workspaceRoot, path);
  if (!existsSync(absolute)) throw new ToolError('not_found', `${raw} does not exist in the workspace.`);
  if (!VIEWABLE.has(extname(absolute).toLowerCase())) {
    throw new ToolError('permission', `open_browser only opens files a browser shows (${[...VIEWABLE].join(' ')}), not ${displayPath(workspaceRoot, absolute)}.`);
  }
  return { url: pathToFileURL(absolute).href, shown: displayPath(workspaceRoot, absolute) };
}
