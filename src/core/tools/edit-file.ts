import { readFile, stat } from 'node:fs/promises';
import * as z from 'zod';
import { planEdit, type EditPlan } from './edit/apply-edit';
import { realTargetInWorkspace, writeFileAtomic } from '../files/atomic-write';
import { decodeText, encodeReplacements, type DecodedText } from './edit/line-endings';
import { applyReview } from './edit/hunk-review';
import { describeShift } from './edit/reindent';
import { summaryWithErrors, writeAndCheck } from './edit/errors-after-write';
import { editText } from './edit/edit-texts';
import { parseRegression } from './edit/parse-check';
import { assertEditableSize } from './edit/size-limit';
import { unifiedDiff } from './edit/unified-diff';
import { fileTracker } from './file-time-tracker';
import { proposedChange, type ProposedChange } from './approval-subject';
import { ToolError, type Tool } from './tool';
import { displayPath, resolveInWorkspace } from '../files/workspace-path';
import type { EditorFilesPort } from '../editor-files-port';

const MAX_DIFF_CHARS = 20_000;

const schema = z.lazy(() => z.object({
  file_path: z.string().min(1).describe('Workspace-relative or absolute path.'),
  old_content: z.string().describe('The current text, copied exactly, without line numbers.'),
  new_content: z.string().describe('The replacement; empty deletes.'),
  replace_all: z.boolean().optional().describe('Replace every occurrence (e.g. a rename).'),
}));

/**
 * Replaces one occurrence (or all) of old_content in an existing file. The file must have been
 * read since it last changed; edits of one file run one at a time; the file keeps its BOM and
 * line endings; a failed edit leaves it untouched; a file over MAX_EDIT_BYTES is refused unread.
 * A file that parsed cleanly before and not after (ast-grep's languages) gets a warning, in every
 * host; in an editor host, the file's error diagnostics after the edit (at most 20) close the
 * result, as after the symbol tools' edits.
 */
export const editFileTool: Tool<typeof schema> = {
  name: 'edit_file',
  category: 'file',
  readOnly: false,
  schema,
  async approval(args, ctx) {
    const preview = await previewEdit(ctx.workspaceRoot, args, ctx.host?.files);
    return { kind: 'file', path: args.file_path, ...(preview ? { proposed: preview } : {}) };
  },
  async run(args, ctx) {
    const absolute = resolveInWorkspace(ctx.workspaceRoot, args.file_path);
    const shown = displayPath(ctx.workspaceRoot, absolute);
    const info = await stat(absolute).catch(() => undefined);
    if (!info) throw new ToolError('not_found', `${shown} does not exist. edit_file changes existing files; create a new file with write_file.`);
    if (info.isDirectory()) throw new ToolError('other', `${shown} is a directory, not a file. Use list_files to see what it holds.`);
    // Before the freshness check: reading such a file first (as that check asks) is no help.
    assertEditableSize(info.size, shown);

    const tracker = fileTracker(ctx);
    return tracker.withLock(absolute, async () => {
      // Inside the lock: an edit queued behind another sees that edit's write as its own.
      await tracker.assertFresh(absolute, shown);
      const files = ctx.host?.files;
      const prepared = await prepareEdit(ctx.workspaceRoot, absolute, shown, args, files);
      // Reviewed hunk by hunk: exactly the accepted hunks are written, and the model hears which were not.
      const reviewed = ctx.review ? applyReview(ctx.review, prepared.decoded.text, prepared.plan.text, shown) : undefined;
      const written = reviewed?.text ?? prepared.plan.text;
      // Parsed while the write and the editor's diagnostics run: what the model is told does not wait on both.
      const parsing = parseRegression(absolute, prepared.decoded.text, written).catch(() => undefined);
      const { errors } = await writeAndCheck(ctx, absolute, async () => {
        const encoded = encodeReplacements(prepared.decoded, reviewed?.replacements ?? prepared.plan.replacements);
        // An editor host takes the text into its buffer (and saves it): the user sees the change land.
        if (files?.writeText) await files.writeText(absolute, encoded);
        else await writeFileAtomic(prepared.real, encoded, { mode: prepared.mode });
        tracker.recordWrite(absolute, (await stat(prepared.real)).mtimeMs);
      });
      const broken = await parsing;

      const diff = unifiedDiff(prepared.decoded.text, written, shown);
      const diffText = diff.text.length > MAX_DIFF_CHARS ? `${diff.text.slice(0, MAX_DIFF_CHARS)}\n… [diff cut at ${MAX_DIFF_CHARS} chars]` : diff.text;
      const rejected = reviewed ? `; rejected ${reviewed.rejected} of ${reviewed.total} hunks` : '';
      const warning = broken ? editText('parse_regression', { FILE: shown, LANGUAGE: broken.language, LINES: describeLines(broken.lines) }) : undefined;
      const summary = summaryWithErrors(`✓ Edited ${shown} (+${diff.added} −${diff.removed}${rejected})`, errors);
      return {
        ok: true,
        output: [reviewed ? reviewed.report : describePlan(prepared.plan, shown), warning, diffText, errors?.report].filter(Boolean).join('\n\n'),
        summary: broken ? `${summary} · ${editText('parse_regression_summary', { LANGUAGE: broken.language })}` : summary,
        change: { path: absolute, before: prepared.decoded.text, after: written },
      };
    });
  },
};

type EditArgs = z.infer<typeof schema>;
type AppliedPlan = Extract<EditPlan, { ok: true }>;

/** Reads the file and decides the edit; throws a ToolError when it cannot be applied. Writes nothing. */
async function prepareEdit(workspaceRoot: string, absolute: string, shown: string, args: EditArgs, files?: EditorFilesPort): Promise<{ real: string; mode: number; decoded: DecodedText; plan: AppliedPlan }> {
  const real = await realTargetInWorkspace(workspaceRoot, absolute, shown);
  const current = await stat(real);
  assertEditableSize(current.size, shown);
  // The editor's buffer when the host has one: the edit applies to what the user sees.
  const content = files?.readText ? await files.readText(absolute) : await readDiskText(real, shown);
  if (content.slice(0, 8192).includes('\0')) throw new ToolError('other', `${shown} is a binary file; edit_file only edits text.`);
  const decoded = decodeText(content);
  const plan = planEdit({ text: decoded.text, oldContent: args.old_content, newContent: args.new_content, replaceAll: args.replace_all ?? false });
  if (!plan.ok) throw planError(plan, shown);
  return { real, mode: current.mode & 0o7777, decoded, plan };
}

async function readDiskText(real: string, shown: string): Promise<string> {
  const buffer = await readFile(real);
  if (buffer.subarray(0, 8192).includes(0)) throw new ToolError('other', `${shown} is a binary file; edit_file only edits text.`);
  const content = buffer.toString('utf8');
  if (!Buffer.from(content, 'utf8').equals(buffer)) {
    throw new ToolError('other', `${shown} is not valid UTF-8 text; edit_file would corrupt it, so it leaves it alone.`);
  }
  return content;
}

/**
 * The diff an edit_file call would make (and the file's whole text before and after), without
 * making it: for the approval prompt, which shows it before the edit runs. Undefined when the call is not valid or would fail (the tool
 * itself then reports why).
 */
export async function previewEdit(
  workspaceRoot: string,
  rawArgs: unknown,
  files?: EditorFilesPort,
): Promise<ProposedChange | undefined> {
  const parsed = schema.safeParse(rawArgs);
  if (!parsed.success) return undefined;
  try {
    const absolute = resolveInWorkspace(workspaceRoot, parsed.data.file_path);
    const shown = displayPath(workspaceRoot, absolute);
    const { decoded, plan } = await prepareEdit(workspaceRoot, absolute, shown, parsed.data, files);
    return proposedChange(absolute, shown, decoded.text, plan.text);
  } catch {
    return undefined;
  }
}

function describePlan(plan: AppliedPlan, shown: string): string {
  const n = plan.replacements.length;
  const where = n === 1 ? `line ${plan.replacements[0]!.line}` : `lines ${plan.replacements.map((r) => r.line).join(', ')}`;
  const notes: string[] = [];
  if (plan.pass !== 'simple' && plan.pass !== 'empty-file') notes.push(`old_content matched by the ${plan.pass} pass, not exactly`);
  if (plan.shift) notes.push(`new_content re-indented ${describeShift(plan.shift)} to the file's indentation`);
  if (plan.lineNumbersStripped) notes.push('line-number prefixes removed from old_content');
  const detail = notes.length ? ` (${notes.join('; ')})` : '';
  return `Edited ${shown}: ${n} replacement${n === 1 ? '' : 's'} at ${where}${detail}.`;
}

/** "line 12", "lines 3, 7". */
function describeLines(lines: readonly number[]): string {
  return `line${lines.length === 1 ? '' : 's'} ${lines.join(', ')}`;
}

function planError(plan: Extract<EditPlan, { ok: false }>, shown: string): ToolError {
  switch (plan.reason) {
    case 'identical':
      return new ToolError('other', 'old_content and new_content are identical, so there is nothing to change. Put the current text in old_content and what it should become in new_content.');
    case 'empty_old':
      return new ToolError('edit_mismatch', `old_content is empty but ${shown} is not: edit_file never replaces a whole file. Quote the exact text to change in old_content (read_file shows it).`);
    case 'ambiguous': {
      const lines = plan.lines ?? [];
      return new ToolError(
        'edit_mismatch',
        `old_content matches ${lines.length} places in ${shown} (lines ${lines.join(', ')}). Include more surrounding lines in old_content so it matches exactly one, or set replace_all: true to change all ${lines.length}.`,
      );
    }
    case 'not_found': {
      const hint = plan.lines?.length ? ` Its first line appears at line ${plan.lines.join(', ')}: compare the lines that follow with old_content.` : '';
      return new ToolError(
        'edit_mismatch',
        `old_content was not found in ${shown}, not even ignoring whitespace, indentation and escaping.${hint} Read the file again and copy the text to change exactly, with a few unique lines around it.`,
      );
    }
    case 'no_change':
      return new ToolError('other', `Applying this edit leaves ${shown} unchanged: the file already has new_content where old_content matched.`);
    case 'unquoted': {
      const [first, last] = plan.block;
      const details = [
        ...plan.skipped.map((s) => editText('unquoted_skipped', { LINE: String(s.line), TEXT: s.text })),
        ...plan.invented.map((text) => editText('unquoted_invented', { TEXT: text })),
      ];
      return new ToolError('edit_mismatch', editText('unquoted', { FILE: shown, BLOCK: `lines ${first}–${last}`, DETAILS: details.join('\n') }));
    }
  }
}
