import * as z from 'zod';
import { defaultProcessManager, TaskNotFoundError } from '../process/process-manager';
import { describeTask, stateText } from '../process/task-format';
import { ToolError, type Tool } from './tool';

const LAST_LINES = 20;

const schema = z.lazy(() => z.object({
  task_id: z.string().min(1).describe('Task id from run_command or list_processes.'),
}));

export const killProcessTool: Tool<typeof schema> = {
  name: 'kill_process',
  category: 'process',
  readOnly: false,
  schema,
  async run(args, ctx) {
    const processes = ctx.processes ?? defaultProcessManager();
    const id = args.task_id.trim().toLowerCase();
    try {
      const before = processes.get(id);
      if (before === undefined) processes.lastLines(id); // throws the not-found error with the known ids
      const wasRunning = before!.state === 'RUNNING';
      const info = await processes.kill(id);
      const { lines } = processes.lastLines(id, LAST_LINES);
      const tail = lines.length ? `\nLast output:\n${lines.join('\n')}` : '';
      const what = wasRunning
        ? `Stopped task ${info.id}: SIGTERM to its process group${info.signal === 'SIGKILL' ? ', then SIGKILL' : ''}; now ${stateText(info)}.`
        : `Task ${info.id} had already ended (${stateText(before!)}); any process it left behind was stopped.`;
      return { ok: true, output: `${what}\n${describeTask(info)}${tail}`, summary: `✓ ${info.id} ${wasRunning ? 'killed' : `already ${before!.state}`}` };
    } catch (err) {
      if (err instanceof TaskNotFoundError) throw new ToolError('not_found', err.message);
      throw err;
    }
  },
};
