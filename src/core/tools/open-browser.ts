import { extname } from 'node:path';
import * as z from 'zod';
import { parseWebOrWorkspaceTarget } from '../web/web-url';
import { webText } from '../web/web-texts';
import { ToolError, type Tool } from './tool';

/**
 * Local files a browser shows rather than runs: an opener hands other files (scripts, .desktop
 * entries, executables) to whatever program they name, which would run code on the user's machine.
 */
const VIEWABLE = new Set(['.html', '.htm', '.xhtml', '.svg', '.pdf', '.png', '.jpg', '.jpeg', '.gif', '.webp', '.txt', '.md', '.json']);

const schema = z.lazy(() => z.object({
  url: z.string().min(1).describe('http(s) URL, or a workspace file (HTML, PDF, image).'),
}));

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
    const target = parseWebOrWorkspaceTarget(args.url, ctx.workspaceRoot, 'opened');
    if (target.kind === 'file' && !VIEWABLE.has(extname(target.path).toLowerCase())) {
      throw new ToolError('permission', `open_browser only opens files a browser shows (${[...VIEWABLE].join(' ')}), not ${target.shown}.`);
    }
    const open = ctx.host?.openExternal;
    if (!open) throw new ToolError('other', webText('open_no_host', { URL: target.shown }));
    if (!(await open(target.url.href))) throw new ToolError('other', webText('open_failed', { URL: target.shown }));
    return { ok: true, output: webText('opened', { URL: target.shown }), summary: `✓ opened ${target.shown}` };
  },
};
