import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as z from 'zod';
import { realTargetInWorkspace, writeFileAtomic } from '../files/atomic-write';
import { applyReview } from './edit/hunk-review';
import { summaryWithErrors, writeAndCheck } from './edit/errors-after-write';
import { fileTracker } from './file-time-tracker';
import { ToolError, type Tool } from './tool';
import { displayPath, resolveInWorkspace } from '../files/workspace-path';
import { proposedChange, type ProposedChange } from './approval-subject';

const schema = z.lazy(() => z.object({
  file_path: z.string().min(1).describe('Workspace-relative or absolute path.'),
  content: z.string().describe('The complete content, with its final newline.'),
  create_dirs: z.boolean().optional().describe('Create missing parent folders.'),
}));

/** Creates a new file. Never overwrites: changing an existing file is edit_file's job. In an editor host its errors close the result. */
export const writeFileTool: Tool<typeof schema> = {
  name: 'write_file',
  category: 'file',
  readOnly: false,
  schema,
  async approval(args, ctx) {
    const proposed = await proposedNewFile(ctx.workspaceRoot, args.file_path, args.content);
    return { kind: 'file', path: args.file_path, ...(proposed ? { proposed } : {}) };
  },
  async run(args, ctx) {
    const absolute = resolveInWorkspace(ctx.workspaceRoot, args.file_path);
    const shown = displayPath(ctx.workspaceRoot, absolute);
    if (absolute === ctx.workspaceRoot || args.file_path.endsWith('/') || args.file_path.endsWith('\\')) {
      throw new ToolError('other', `${args.file_path} names a folder; give write_file the path of a file.`);
    }
    const tracker = fileTracker(ctx);
    return tracker.withLock(absolute, async () => {
      const existing = await stat(absolute).catch(() => undefined);
      if (existing?.isDirectory()) throw new ToolError('other', `${shown} is a directory; write_file creates files.`);
      if (existing) throw alreadyExists(shown);

      const parent = dirname(absolute);
      const missing = await firstMissingFolder(parent, ctx.workspaceRoot);
      // The nearest existing folder must really be inside the workspace (not a link out of it).
      await realTargetInWorkspace(ctx.workspaceRoot, missing ? dirname(missing) : parent, shown);
      if (missing) {
        const missingShown = displayPath(ctx.workspaceRoot, missing);
        if (!args.create_dirs) {
          throw new ToolError('not_found', `The folder ${missingShown}/ does not exist. Call write_file again with create_dirs: true to create it, or check the path with list_files.`);
        }
        await mkdir(parent, { recursive: true });
      } else {
        const parentInfo = await stat(parent);
        if (!parentInfo.isDirectory()) throw new ToolError('other', `${displayPath(ctx.workspaceRoot, parent)} is a file, so it cannot hold ${shown}.`);
      }

      // Reviewed hunk by hunk in the editor: exactly the accepted hunks are written.
      const reviewed = ctx.review ? applyReview(ctx.review, '', args.content, shown) : undefined;
      const content = reviewed?.text ?? args.content;
      const { errors } = await writeAndCheck(ctx, absolute, async () => {
        try {
          // An editor host creates it in its buffer (and saves it); the check above made sure it is new.
          const files = ctx.host?.files;
          if (files?.writeText) await files.writeText(absolute, content);
          else await writeFileAtomic(absolute, content, { exclusive: true });
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw alreadyExists(shown);
          throw err;
        }
        // An editor that keeps the new file unsaved leaves nothing on disk to time yet.
        const written = await stat(absolute).catch(() => undefined);
        if (written) tracker.recordWrite(absolute, written.mtimeMs);
      });
      const lines = countLines(content);
      const created = `Created ${shown} (${lines} line${lines === 1 ? '' : 's'}, ${Buffer.byteLength(content, 'utf8').toLocaleString('en-US')} bytes).`;
      return {
        ok: true,
        output: [created, reviewed?.report, errors?.report].filter(Boolean).join('\n\n'),
        summary: summaryWithErrors(`✓ Created ${shown} (${lines} line${lines === 1 ? '' : 's'}${reviewed ? `; rejected ${reviewed.rejected} of ${reviewed.total} hunks` : ''})`, errors),
        change: { path: absolute, before: '', after: content },
      };
    });
  },
};

function alreadyExists(shown: string): ToolError {
  return new ToolError('other', `${shown} already exists; write_file only creates new files. To change it, read it with read_file and use edit_file.`);
}

/** The outermost missing folder on the way from the workspace root to `folder`, if any. */
async function firstMissingFolder(folder: string, workspaceRoot: string): Promise<string | undefined> {
  let missing: string | undefined;
  for (let dir = folder; dir !== dirname(dir); dir = dirname(dir)) {
    if (await stat(dir).then(() => true, () => false)) break;
    missing = dir;
    if (dir === workspaceRoot) break;
  }
  return missing;
}

export function countLines(text: string): number {
  if (text === '') return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** The new file as a change from nothing; none when the file exists (the tool refuses that) or the path is not the workspace's. */
async function proposedNewFile(workspaceRoot: string, target: string, content: string): Promise<ProposedChange | undefined> {
  try {
    const absolute = resolveInWorkspace(workspaceRoot, target);
    if (await stat(absolute).then(() => true, () => false)) return undefined;
    return proposedChange(absolute, displayPath(workspaceRoot, absolute), '', content, true);
  } catch {
    return undefined;
  }
}
