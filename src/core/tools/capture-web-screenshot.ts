import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { browserFailure } from '../web/browser-errors';
import { formatBytes } from '../web/content-kind';
import { httpStatusFailure } from '../web/network-errors';
import type { WebSession } from '../web/web-session';
import { parseWebUrl, siteOf } from '../web/web-url';
import { ToolError, type Tool } from './tool';
import { displayPath, resolveInWorkspace } from './workspace-path';

const MAX_TIMEOUT_MS = 180_000;
const SCREENSHOTS_DIR = join('.opendev', 'screenshots');
/** Folders whose files configure the agent or the repository: a screenshot never lands there (except its own folder). */
const PROTECTED = ['.git', '.claude', '.opendev'];

const schema = z.object({
  url: z.string().min(1).describe('http(s) URL or workspace HTML file.'),
  path: z.string().min(1).optional().describe('.png in the workspace; default .opendev/screenshots/.'),
  full_page: z.boolean().default(true).describe('Whole page.'),
  viewport: z.string().regex(/^\d{3,4}x\d{3,4}$/, 'WIDTHxHEIGHT, like 1280x720').default('1920x1080').describe('WxH.'),
  pdf: z.boolean().default(false).describe('Also save a PDF.'),
  timeout_ms: z.number().int().min(1_000).max(MAX_TIMEOUT_MS).default(30_000).describe('Load timeout.'),
  wait_for: z.string().min(1).optional().describe('CSS selector to await.'),
});

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
      const target = pageTarget(args.url, ctx.workspaceRoot);
      const png = outputPath(ctx.workspaceRoot, args.path, target);
      const pdf = args.pdf ? png.replace(/\.png$/i, '.pdf') : undefined;
      const viewport = viewportSize(args.viewport);
      let shot: { image: Buffer; document?: Buffer };
      try {
        shot = await web.browser.withPage(async (page) => {
          const response = await page.goto(target.href, { waitUntil: 'load', timeout: args.timeout_ms });
          if (response && response.status() >= 400) throw httpStatusFailure(response.status(), response.statusText(), target.href);
          if (args.wait_for) await page.waitForSelector(args.wait_for, { timeout: args.timeout_ms });
          else await page.waitForLoadState('networkidle', { timeout: Math.min(5_000, args.timeout_ms) }).catch(() => undefined);
          const image = await page.screenshot({ fullPage: args.full_page, type: 'png', timeout: args.timeout_ms });
          return pdf ? { image, document: await page.pdf({ printBackground: true }) } : { image };
        }, { viewport, signal: ctx.signal });
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        throw browserFailure(err, target.href, args.timeout_ms);
      }
      await saveFile(png, shot.image);
      if (pdf && shot.document) await saveFile(pdf, shot.document);
      const { width, height } = pngSize(shot.image);
      const lines = [`Saved a screenshot of ${target.href}: ${displayPath(ctx.workspaceRoot, png)} (PNG, ${width}×${height}, ${formatBytes(shot.image.length)}).`];
      if (pdf && shot.document) lines.push(`PDF: ${displayPath(ctx.workspaceRoot, pdf)} (${formatBytes(shot.document.length)}).`);
      lines.push('Study it with analyze_image.');
      return { ok: true, output: lines.join('\n'), summary: `✓ ${displayPath(ctx.workspaceRoot, png)} ${width}×${height}${pdf ? ' + PDF' : ''}` };
    },
  };
}

/** `1280x720` → pixels, within what a screen can be. */
function viewportSize(text: string): { width: number; height: number } {
  const [width, height] = text.split('x').map(Number) as [number, number];
  if (width < 200 || height < 200 || width > 7680 || height > 4320) throw new ToolError('other', `viewport ${text} is out of range (200x200 to 7680x4320).`);
  return { width, height };
}

/** An http(s) URL as given; a path or file: URL must name an existing file in the workspace. */
function pageTarget(raw: string, workspaceRoot: string): URL {
  const text = raw.trim();
  if (/^https?:\/\//i.test(text)) return parseWebUrl(text);
  let path = text;
  if (/^file:/i.test(text)) {
    try {
      path = fileURLToPath(text);
    } catch {
      throw new ToolError('other', `${raw} is not a valid file: URL.`);
    }
  } else if (/^[a-z][a-z0-9+.-]+:/i.test(text) && !/^[a-z]:[\\/]/i.test(text)) {
    throw new ToolError('other', `Only http(s) URLs and files in the workspace can be captured, not ${text.split(':')[0]}: addresses.`);
  }
  const absolute = resolveInWorkspace(workspaceRoot, path);
  if (!existsSync(absolute)) throw new ToolError('not_found', `${raw} does not exist in the workspace. Give an http(s) URL or an existing HTML file.`);
  return pathToFileURL(absolute);
}

/** The PNG's path: the one given (inside the workspace, .png, not in a protected folder) or a new one per capture. */
function outputPath(workspaceRoot: string, given: string | undefined, target: URL): string {
  if (given === undefined) {
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    const site = target.protocol === 'file:' ? 'file' : siteOf(target).replace(/[^a-z0-9.-]/gi, '_');
    return join(workspaceRoot, SCREENSHOTS_DIR, `${site}-${stamp}.png`);
  }
  const absolute = resolveInWorkspace(workspaceRoot, given);
  if (extname(absolute).toLowerCase() !== '.png') throw new ToolError('other', `path must end in .png (the PDF, when asked, goes beside it): ${given}`);
  const rel = relative(workspaceRoot, absolute);
  const first = rel.split(sep)[0] ?? '';
  if (PROTECTED.includes(first) && !rel.startsWith(SCREENSHOTS_DIR + sep)) {
    throw new ToolError('permission', `${given} is inside ${first}/, which configures the agent or the repository. Save screenshots elsewhere (default ${SCREENSHOTS_DIR}/).`);
  }
  return absolute;
}

/** Written to a temporary file first, so a failed write never leaves half an image under the real name. */
async function saveFile(path: string, data: Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temp, data);
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw new ToolError('other', `Could not save ${path}: ${(err as Error).message}`);
  }
}

/** Width and height from the PNG header (IHDR follows the 8-byte signature). */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
