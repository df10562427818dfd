import { open } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import * as z from 'zod';
import { sniffImageType } from '../../shared/image-attachment';
import { browserFailure } from '../web/browser-errors';
import { saveScreenshot, screenshotDestination, screenshotResult } from '../web/screenshot-files';
import type { WebSession } from '../web/web-session';
import { parseWebOrWorkspaceTarget, siteOf } from '../web/web-url';
import { webText } from '../web/web-texts';
import { ToolError, type Tool } from './tool';

const TIMEOUT_MS = 30_000;
const VIEWPORT = { width: 1280, height: 800 };
/** What people ask for that no extension or CLI can capture. */
const NOT_CAPTURABLE = /^(the )?(screen|desktop|display|window|vs ?code|editor|ide|terminal|app)( window)?$/i;

const schema = z.lazy(() => z.object({
  url_or_path: z.string().trim().min(1).describe('http(s) URL, or a workspace file.'),
  path: z.string().min(1).optional().describe('PNG to write (default .opendev/screenshots/).'),
}));

type Target = { kind: 'page'; href: string; name: string } | { kind: 'image'; href: string; name: string; element: 'img' | 'svg' };

/**
 * capture_screenshot: what Chromium renders of a URL, a local HTML page, an SVG or an image file,
 * as a PNG that analyze_image can look at (an SVG or WebP becomes a PNG the vision model takes).
 * The screen, the VS Code window and other applications cannot be captured (VS Code gives
 * extensions no such API, and the CLI has no window): the description and the error say so and
 * point to pasting a screenshot into the chat. It writes a file, so it asks like any write.
 * The browser is the session's (src/core/web/browser.ts), shared with the web tools.
 */
export function captureScreenshotTool(web: WebSession): Tool<typeof schema> {
  return {
    name: 'capture_screenshot',
    category: 'web',
    readOnly: false,
    schema,
    async run(args, ctx) {
      const target = await resolveTarget(args.url_or_path, ctx.workspaceRoot);
      const destination = screenshotDestination(ctx.workspaceRoot, args.path, target.name);
      let image: Buffer;
      try {
        image = await web.browser.withPage(async (page) => {
          await page.goto(target.href, { waitUntil: 'load', timeout: TIMEOUT_MS });
          if (target.kind === 'image') return page.locator(target.element).first().screenshot({ type: 'png', timeout: TIMEOUT_MS, omitBackground: true });
          await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
          return page.screenshot({ type: 'png', timeout: TIMEOUT_MS });
        }, { viewport: VIEWPORT, signal: ctx.signal });
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        throw browserFailure(err, target.href, TIMEOUT_MS);
      }
      const saved = await saveScreenshot(ctx.workspaceRoot, destination, image);
      return screenshotResult(ctx.workspaceRoot, target.href, saved, image);
    },
  };
}

async function resolveTarget(raw: string, workspaceRoot: string): Promise<Target> {
  if (NOT_CAPTURABLE.test(raw)) throw new ToolError('other', webText('screen_not_capturable', { WHAT: raw }));
  const target = parseWebOrWorkspaceTarget(raw, workspaceRoot, 'captured');
  if (target.kind === 'web') return { kind: 'page', href: target.url.href, name: siteOf(target.url) };
  const href = target.url.href;
  const name = basename(target.path, extname(target.path));
  const ext = extname(target.path).toLowerCase();
  if (['.html', '.htm', '.xhtml'].includes(ext)) return { kind: 'page', href, name };
  if (ext === '.svg') return { kind: 'image', href, name, element: 'svg' };
  // Raster images by their first bytes, not their name.
  if (sniffImageType((await head(target.path)).toString('base64'))) return { kind: 'image', href, name, element: 'img' };
  throw new ToolError('other', `${target.shown} is not an HTML page, an SVG or a PNG, JPEG, GIF or WebP image.`);
}

async function head(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(16);
    const { bytesRead } = await handle.read(buffer, 0, 16, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
