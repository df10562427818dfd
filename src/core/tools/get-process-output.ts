import * as z from 'zod';
import { defaultProcessManager, TaskNotFoundError } from '../process/process-manager';
import { describeTask, plural } from '../process/task-format';
import { ToolError, type Tool } from './tool';

const MAX_OUTPUT_CHARS = 30_000;

const schema = z.lazy(() => z.object({
  task_id: z.string().min(1).describe('Task id from run_command or list_processes.'),
}));

export const getProcessOutputTool: Tool<typeof schema> = {
  name: 'get_process_output',
  category: 'process',
  readOnly: true,
  schema,
  async run(args, ctx) {
    const processes = ctx.processes ?? defaultProcessManager();
    try {
      const info = processes.get(args.task_id.trim().toLowerCase());
      const { lines, total } = processes.lastLines(args.task_id);
      let text = lines.join('\n');
      if (text.length > MAX_OUTPUT_CHARS) text = `[… earlier characters cut …]\n${text.slice(-MAX_OUTPUT_CHARS)}`;
      const shown = lines.length < total ? `Last ${lines.length} of ${plural(total, 'line')}` : total === 1 ? 'Its one line' : `All ${plural(total, 'line')}`;
      return {
        ok: true,
        output: `Task ${describeTask(info!)}\nOutput file: ${info!.outputFile}\n${shown}:\n${text.trim() === '' ? '(no output yet)' : text}`,
        summary: `✓ ${info!.id} ${info!.state}, ${plural(total, 'line')}`,
      };
    } catch (err) {
      if (err instanceof TaskNotFoundError) throw new ToolError('not_found', err.message);
      throw err;
    }
  },
};
