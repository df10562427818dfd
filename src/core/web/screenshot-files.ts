import { mkdir } from 'node:fs/promises';
import { dirname, extname, join, relative, sep } from 'node:path';
import { realTargetInWorkspace, writeFileAtomic } from '../files/atomic-write';
import { ToolError } from '../tool-result';
import { displayPath, resolveInWorkspace } from '../files/workspace-path';
import { formatBytes } from '../format-bytes';
import { webText } from './web-texts';

/** Where captures go when no path is given. */
export const SCREENSHOTS_DIR = join('.opendev', 'screenshots');
/** Folders whose files configure the repository or the agent: no capture lands there (except SCREENSHOTS_DIR). */
const PROTECTED = ['.git', '.claude', '.opendev'];
/** Enough for any burst of captures of one site; past it something else is wrong. */
const MAX_SUFFIX = 1000;

/** A checked place for a capture: the path asked for, or a name to claim under SCREENSHOTS_DIR. */
export type ScreenshotDestination = { kind: 'given'; path: string } | { kind: 'default'; dir: string; stem: string };

/**
 * Where a capture will go, checked before anything is captured: the path given (inside the
 * workspace, `.png`, not in a protected folder), or `.opendev/screenshots/<name>-<time>` with the
 * time to the millisecond (saveScreenshot adds `-2`, `-3`… when even that is taken).
 */
export function screenshotDestination(workspaceRoot: string, given: string | undefined, name: string, now = new Date()): ScreenshotDestination {
  if (given === undefined) {
    const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').replace('.', '-').slice(0, 19);
    const safe = name.replace(/[^\w.-]+/g, '_').slice(0, 60) || 'page';
    return { kind: 'default', dir: join(workspaceRoot, SCREENSHOTS_DIR), stem: `${safe}-${stamp}` };
  }
  const absolute = resolveInWorkspace(workspaceRoot, given);
  if (extname(absolute).toLowerCase() !== '.png') throw new ToolError('other', `path must end in .png (a PDF, when asked, goes beside it): ${given}`);
  const rel = relative(workspaceRoot, absolute);
  const first = rel.split(sep)[0] ?? '';
  if (PROTECTED.includes(first.toLowerCase()) && !rel.toLowerCase().startsWith(SCREENSHOTS_DIR + sep)) {
    throw new ToolError('permission', `${given} is inside ${first}/, which configures the agent or the repository. Save screenshots elsewhere (default ${SCREENSHOTS_DIR}/).`);
  }
  return { kind: 'given', path: absolute };
}

export interface SavedScreenshot {
  png: string;
  pdf?: string;
}

/**
 * Writes the PNG (and the PDF beside it) through a temporary file, so a failed write never
 * leaves half an image under the real name. A default name is claimed exclusively: two captures
 * in the same millisecond, or two agents at once, never overwrite each other. A given path is
 * replaced, as asked, but not through a symbolic link that leads out of the workspace.
 */
export async function saveScreenshot(workspaceRoot: string, destination: ScreenshotDestination, png: Uint8Array, pdf?: Uint8Array): Promise<SavedScreenshot> {
  const folder = destination.kind === 'given' ? dirname(destination.path) : destination.dir;
  const shownFolder = displayPath(workspaceRoot, folder);
  try {
    await mkdir(folder, { recursive: true });
  } catch (err) {
    throw new ToolError('other', `Could not create ${shownFolder}: ${(err as Error).message}`);
  }
  await realTargetInWorkspace(workspaceRoot, folder, shownFolder);
  const target = destination.kind === 'given' ? destination.path : await claimName(workspaceRoot, destination, png);
  if (destination.kind === 'given') await write(workspaceRoot, target, png);
  if (!pdf) return { png: target };
  const document = target.replace(/\.png$/i, '.pdf');
  await write(workspaceRoot, document, pdf);
  return { png: target, pdf: document };
}

/** `<stem>.png`, else `<stem>-2.png`, `<stem>-3.png`…: the first name nobody holds, written at once. */
async function claimName(workspaceRoot: string, destination: { dir: string; stem: string }, png: Uint8Array): Promise<string> {
  for (let n = 1; n <= MAX_SUFFIX; n++) {
    const path = join(destination.dir, `${destination.stem}${n === 1 ? '' : `-${n}`}.png`);
    try {
      await writeFileAtomic(path, png, { exclusive: true });
      return path;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw saveFailure(workspaceRoot, path, err);
    }
  }
  throw new ToolError('other', `Could not find a free name for ${destination.stem}.png in ${displayPath(workspaceRoot, destination.dir)}; give a path.`);
}

async function write(workspaceRoot: string, path: string, data: Uint8Array): Promise<void> {
  try {
    await writeFileAtomic(path, data);
  } catch (err) {
    throw saveFailure(workspaceRoot, path, err);
  }
}

function saveFailure(workspaceRoot: string, path: string, err: unknown): ToolError {
  return new ToolError('other', `Could not save ${displayPath(workspaceRoot, path)}: ${(err as Error).message}`);
}

/** Width and height from the PNG header (IHDR follows the 8-byte signature). */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
}

/** The tool result for a saved capture: where it is, its size, and what to do with it. */
export function screenshotResult(workspaceRoot: string, source: string, saved: SavedScreenshot, png: Uint8Array, pdf?: Uint8Array): { ok: true; output: string; summary: string } {
  const { width, height } = pngSize(png);
  const shown = displayPath(workspaceRoot, saved.png);
  const lines = [webText('screenshot_saved', { URL: source, PATH: shown, WIDTH: String(width), HEIGHT: String(height), SIZE: formatBytes(png.length) })];
  if (saved.pdf && pdf) lines.push(webText('screenshot_pdf', { PATH: displayPath(workspaceRoot, saved.pdf), SIZE: formatBytes(pdf.length) }));
  lines.push(webText('screenshot_next'));
  return { ok: true, output: lines.join('\n'), summary: `✓ ${shown} ${width}×${height}${saved.pdf ? ' + PDF' : ''}` };
}
