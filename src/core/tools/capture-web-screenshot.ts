import * as z from 'zod';
import { browserFailure } from '../web/browser-errors';
import { httpStatusFailure } from '../web/network-errors';
import { saveScreenshot, screenshotDestination, screenshotResult } from '../web/screenshot-files';
import type { WebSession } from '../web/web-session';
import { parseWebOrWorkspaceTarget, siteOf } from '../web/web-url';
import { ToolError, type Tool } from './tool';

const MAX_TIMEOUT_MS = 180_000;

const schema = z.lazy(() => z.object({
  url: z.string().min(1).describe('http(s) URL or workspace HTML file.'),
  path: z.string().min(1).optional().describe('.png in the workspace; default .opendev/screenshots/.'),
  full_page: z.boolean().default(true).describe('Whole page.'),
  viewport: z.string().regex(/^\d{3,4}x\d{3,4}$/, 'WIDTHxHEIGHT, like 1280x720').default('1920x1080').describe('WxH.'),
  pdf: z.boolean().default(false).describe('Also save a PDF.'),
  timeout_ms: z.number().int().min(1_000).max(MAX_TIMEOUT_MS).default(30_000).describe('Load timeout.'),
  wait_for: z.string().min(1).optional().describe('CSS selector to await.'),
}));

/**
 * capture_web_screenshot: a page (or a workspace HTML file) rendered in the session's Chromium,
 * saved as PNG (and PDF when asked) in the workspace. It writes a file, so it asks for approval
 * like any write (not in plan mode; Auto runs it).
 */
export function captureWebScreenshotTool(web: WebSession): Tool<typeof schema> {
  return {
    name: 'capture_web_screenshot',
    category: 'web',
    readOnly: false,
    schema,
    async run(args, ctx) {
      const target = parseWebOrWorkspaceTarget(args.url, ctx.workspaceRoot, 'captured');
      const destination = screenshotDestination(ctx.workspaceRoot, args.path, target.kind === 'file' ? 'file' : siteOf(target.url));
      const viewport = viewportSize(args.viewport);
      const href = target.url.href;
      let shot: { image: Buffer; document?: Buffer };
      try {
        shot = await web.browser.withPage(async (page) => {
          const response = await page.goto(href, { waitUntil: 'load', timeout: args.timeout_ms });
          if (response && response.status() >= 400) throw httpStatusFailure(response.status(), response.statusText(), href);
          if (args.wait_for) await page.waitForSelector(args.wait_for, { timeout: args.timeout_ms });
          else await page.waitForLoadState('networkidle', { timeout: Math.min(5_000, args.timeout_ms) }).catch(() => undefined);
          const image = await page.screenshot({ fullPage: args.full_page, type: 'png', timeout: args.timeout_ms });
          return args.pdf ? { image, document: await page.pdf({ printBackground: true }) } : { image };
        }, { viewport, signal: ctx.signal });
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        throw browserFailure(err, href, args.timeout_ms);
      }
      const saved = await saveScreenshot(ctx.workspaceRoot, destination, shot.image, shot.document);
      return screenshotResult(ctx.workspaceRoot, href, saved, shot.image, shot.document);
    },
  };
}

/** `1280x720` → pixels, within what a screen can be. */
function viewportSize(text: string): { width: number; height: number } {
  const [width, height] = text.split('x').map(Number) as [number, number];
  if (width < 200 || height < 200 || width > 7680 || height > 4320) throw new ToolError('other', `viewport ${text} is out of range (200x200 to 7680x4320).`);
  return { width, height };
}
