import { existsSync } from 'node:fs';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { sniffImageType } from '../../shared/image-attachment';
import { browserFailure } from '../web/browser-errors';
import { formatBytes } from '../web/content-kind';
import type { WebSession } from '../web/web-session';
import { parseWebUrl } from '../web/web-url';
import { ToolError, type Tool } from './tool';
import { displayPath, resolveInWorkspace } from './workspace-path';

const TIMEOUT_MS = 30_000;
const VIEWPORT = { width: 1280, height: 800 };
const SCREENSHOTS_DIR = join('.opendev', 'screenshots');
/** What people ask for that no extension or CLI can capture. */
const NOT_CAPTURABLE = /^(the )?(screen|desktop|display|window|vs ?code|editor|ide|terminal|app)( window)?$/i;

const schema = z.object({
  url_or_path: z.string().trim().min(1).describe('http(s) URL, or a workspace file.'),
  path: z.string().min(1).optional().describe('PNG to write (default .opendev/screenshots/).'),
});

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
      const png = outputPath(ctx.workspaceRoot, args.path, target.name);
      let image: Buffer;
      try {
        image = await web.browser.withPage(async (page) => {
          await page.goto(target.href, { waitUntil: 'load', timeout: TIMEOUT_MS });
          if (target.kind === 'image') return page.locator(target.element).first().screenshot({ type: 'png', timeout: TIMEOUT_MS, omitBackground: true });
          await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
          return page.screenshot({ type: 'png', timeout: TIMEOUT_MS });
        }, { viewport: VIEWPORT });
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        throw browserFailure(err, target.href, TIMEOUT_MS);
      }
      await saveAtomically(png, image);
      const { width, height } = { width: image.readUInt32BE(16), height: image.readUInt32BE(20) };
      const shown = displayPath(ctx.workspaceRoot, png);
      return {
        ok: true,
        output: `Saved ${shown} (PNG, ${width}×${height}, ${formatBytes(image.length)}) from ${target.href}. Look at it with analyze_image.`,
        summary: `✓ ${shown} ${width}×${height}`,
      };
    },
  };
}

async function resolveTarget(raw: string, workspaceRoot: string): Promise<Target> {
  if (NOT_CAPTURABLE.test(raw)) {
    throw new ToolError('other', `The ${raw} cannot be captured: VS Code gives extensions no way to screenshot its window or the screen, and the CLI has no window. Ask the user to paste a screenshot into the chat (it reaches the vision model), or capture a URL or file instead.`);
  }
  if (/^https?:\/\//i.test(raw)) {
    const url = parseWebUrl(raw);
    return { kind: 'page', href: url.href, name: url.hostname };
  }
  if (/^[a-z][a-z0-9+.-]+:/i.test(raw) && !/^[a-z]:[\\/]/i.test(raw)) {
    throw new ToolError('other', `Only http(s) URLs and files in the workspace can be captured, not ${raw.split(':')[0]}: addresses.`);
  }
  const absolute = resolveInWorkspace(workspaceRoot, raw);
  const shown = displayPath(workspaceRoot, absolute);
  if (!existsSync(absolute)) throw new ToolError('not_found', `${shown} does not exist. Give an http(s) URL or an existing file.`);
  const href = pathToFileURL(absolute).href;
  const name = basename(absolute, extname(absolute));
  const ext = extname(absolute).toLowerCase();
  if (['.html', '.htm', '.xhtml'].includes(ext)) return { kind: 'page', href, name };
  if (ext === '.svg') return { kind: 'image', href, name, element: 'svg' };
  // Raster images by their first bytes, not their name.
  if (sniffImageType((await head(absolute)).toString('base64'))) return { kind: 'image', href, name, element: 'img' };
  throw new ToolError('other', `${shown} is not an HTML page, an SVG or a PNG, JPEG, GIF or WebP image.`);
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

/** The given path (in the workspace, .png, not in .git) or `.opendev/screenshots/<name>-<time>.png`. */
function outputPath(workspaceRoot: string, given: string | undefined, name: string): string {
  if (given === undefined) {
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    return join(workspaceRoot, SCREENSHOTS_DIR, `${name.replace(/[^\w.-]+/g, '_').slice(0, 60) || 'page'}-${stamp}.png`);
  }
  const absolute = resolveInWorkspace(workspaceRoot, given);
  if (extname(absolute).toLowerCase() !== '.png') throw new ToolError('other', `path must end in .png: ${given}`);
  if (relative(workspaceRoot, absolute).split(sep)[0] === '.git') throw new ToolError('permission', `${given} is inside .git/; save screenshots elsewhere.`);
  return absolute;
}

/** Through a temporary file, so a failed write never leaves half an image under the real name. */
async function saveAtomically(path: string, data: Buffer): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(temp, data);
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw new ToolError('other', `Could not save ${path}: ${(err as Error).message}`);
  }
}
