import { createInterface } from 'node:readline/promises';
import type { Agent } from '../core/agent/agent';
import { StreamRenderer } from '../terminal-ui/stream-renderer';
import { style } from '../terminal-ui/ansi';

/**
 * The plain line-based interactive mode: one prompt per line, answers stream in.
 * Ctrl+C stops a running turn; at the prompt it exits.
 */
export async function runRepl(agent: Agent): Promise<number> {
  const color = process.stdout.isTTY ?? false;
  const renderer = new StreamRenderer((t) => process.stdout.write(t), color);
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY ?? false });
  let running: AbortController | undefined;
  rl.on('SIGINT', () => {
    if (running) running.abort();
    else rl.close();
  });
  process.stdout.write(style('OpenDev — type a task, /exit to quit.\n', 'bold', color));
  try {
    for (;;) {
      const line = (await rl.question(style('› ', 'cyan', color)).catch(() => undefined))?.trim();
      if (line === undefined || line === '/exit') return 0;
      if (!line) continue;
      running = new AbortController();
      const result = await agent.runTurn(line, renderer, running.signal);
      running = undefined;
      renderer.newline();
      if (result.status === 'failed') process.stdout.write(style(`${result.error.message}\n`, 'red', color));
      if (result.status === 'stopped') process.stdout.write(style('(stopped)\n', 'dim', color));
    }
  } finally {
    rl.close();
  }
}
