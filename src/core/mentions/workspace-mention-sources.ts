import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { silentUI } from '../ui';
import { FileTimeTracker } from '../tools/file-time-tracker';
import { listFilesTool } from '../tools/list-files';
import { readFileTool } from '../tools/read-file';
import type { ToolExecutionContext, ToolResult } from '../tools/tool';
import { isInside } from '../files/workspace-path';
import { workingTreeDiff } from './git-diff';
import type { MentionSources } from './mention-expander';

/**
 * The mention sources a plain folder offers: files read and folders listed by the read_file and
 * list_files tools themselves (same caps, same binary check, .gitignore honoured), the diff from
 * the real git. Problems and terminal output belong to a host: here they say so.
 */
export function workspaceMentionSources(workspaceRoot: string): MentionSources {
  const ctx: ToolExecutionContext = {
    workspaceRoot,
    signal: new AbortController().signal,
    ui: silentUI,
    agent: { name: 'mentions', isSubagent: false },
    todos: { list: () => [], hasOpen: () => false },
    mode: { mode: 'plan', autoApproveEdits: false },
    completion: {},
    // Its own read times: attaching a file is not the agent reading it.
    files: new FileTimeTracker(),
  };
  const output = async (run: Promise<ToolResult>): Promise<string> => {
    const result = await run.catch((err: Error) => ({ ok: false, output: err.message, summary: '' }) as ToolResult);
    if (!result.ok) throw new Error(result.output.replace(/^Error \(\w+\): /, ''));
    return result.output;
  };
  return {
    async kindOf(path) {
      const absolute = resolve(workspaceRoot, path);
      if (!isInside(workspaceRoot, absolute)) return undefined;
      const info = await stat(absolute).catch(() => undefined);
      return info?.isDirectory() ? 'folder' : info?.isFile() ? 'file' : undefined;
    },
    readFile: (path) => output(readFileTool.run({ file_path: path }, ctx)),
    listFolder: (path) => output(listFilesTool.run({ path }, ctx)),
    problems: async () => 'Diagnostics are only available in the editor.',
    terminal: async () => 'No terminal output is available here.',
    gitDiff: () => workingTreeDiff(workspaceRoot),
  };
}
