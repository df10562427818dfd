import { getProcessOutputTool } from './get-process-output';
import { killProcessTool } from './kill-process';
import { listProcessesTool } from './list-processes';
import { runCommandTool } from './run-command';
import type { Tool } from './tool';

/** The process tools (appendix A, "process"): run_command and the background-task tools. */
export function processTools(): Tool[] {
  return [runCommandTool, listProcessesTool, getProcessOutputTool, killProcessTool];
}
