import * as z from 'zod';
import { defaultProcessManager } from '../process/process-manager';
import { describeTask } from '../process/task-format';
import type { Tool } from './tool';

const schema = z.lazy(() => z.object({}));

export const listProcessesTool: Tool<typeof schema> = {
  name: 'list_processes',
  category: 'process',
  readOnly: true,
  schema,
  async run(_args, ctx) {
    const tasks = (ctx.processes ?? defaultProcessManager()).list();
    if (tasks.length === 0) return { ok: true, output: 'No background tasks in this session.', summary: '✓ no background tasks' };
    const running = tasks.filter((t) => t.state === 'RUNNING').length;
    const lines = tasks.map((t) => `- ${describeTask(t)}`);
    return {
      ok: true,
      output: `${tasks.length} background task${tasks.length === 1 ? '' : 's'} (${running} running); id · state · pid · runtime · lines · command:\n${lines.join('\n')}`,
      summary: `✓ ${tasks.length} task${tasks.length === 1 ? '' : 's'}, ${running} running`,
    };
  },
};
