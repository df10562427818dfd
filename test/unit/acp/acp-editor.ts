// The editor side of an ACP client's file system and terminal capabilities, as an editor offers
// them: text files read from its open buffers (unsaved text wins over the disk) and written into
// them and saved; terminals that run real processes and keep their output. It records what the
// agent asked, in order, so a test can say which calls went through the editor.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import type { ClientApp } from '@agentclientprotocol/sdk';

interface Terminal {
  child: ChildProcess;
  output: string;
  exit: Promise<{ exitCode: number | null; signal: string | null }>;
  status?: { exitCode: number | null; signal: string | null };
}

export class AcpEditor {
  /** Open buffers with unsaved text, by absolute path. */
  readonly buffers = new Map<string, string>();
  /** Every fs and terminal method the agent called, in order, with its params. */
  readonly calls: Array<{ method: string; params: Record<string, unknown> }> = [];
  private readonly terminals = new Map<string, Terminal>();
  private readonly waiters: Array<{ method: string; resolve: () => void }> = [];
  private next = 0;
  /** The environment the editor's terminals start from (the editor's own, which may hold keys). */
  env: NodeJS.ProcessEnv = process.env;

  /** The client-side handlers for `fs/*` and `terminal/*`. */
  register(app: ClientApp): ClientApp {
    return app
      .onRequest('fs/read_text_file', ({ params }) => {
        this.record({ method: 'fs/read_text_file', params });
        return { content: this.buffers.get(params.path) ?? readFileSync(params.path, 'utf8') };
      })
      .onRequest('fs/write_text_file', ({ params }) => {
        this.record({ method: 'fs/write_text_file', params });
        // The editor takes the text into the buffer and saves it.
        this.buffers.delete(params.path);
        writeFileSync(params.path, params.content);
        return {};
      })
      .onRequest('terminal/create', ({ params }) => {
        this.record({ method: 'terminal/create', params });
        const id = `term-${++this.next}`;
        const env = { ...this.env, ...Object.fromEntries((params.env ?? []).map((v) => [v.name, v.value])) };
        const child = spawn(params.command, params.args ?? [], { cwd: params.cwd ?? undefined, env, stdio: ['ignore', 'pipe', 'pipe'] });
        const terminal: Terminal = {
          child,
          output: '',
          exit: new Promise((resolve) => child.once('close', (exitCode, signal) => resolve({ exitCode, signal }))),
        };
        void terminal.exit.then((status) => (terminal.status = status));
        child.stdout?.on('data', (d: Buffer) => (terminal.output += d));
        child.stderr?.on('data', (d: Buffer) => (terminal.output += d));
        this.terminals.set(id, terminal);
        return { terminalId: id };
      })
      .onRequest('terminal/output', ({ params }) => {
        this.record({ method: 'terminal/output', params });
        const terminal = this.terminal(params.terminalId);
        return { output: terminal.output, truncated: false, ...(terminal.status ? { exitStatus: terminal.status } : {}) };
      })
      .onRequest('terminal/wait_for_exit', async ({ params }) => {
        this.record({ method: 'terminal/wait_for_exit', params });
        return this.terminal(params.terminalId).exit;
      })
      .onRequest('terminal/kill', ({ params }) => {
        this.record({ method: 'terminal/kill', params });
        this.terminal(params.terminalId).child.kill();
        return {};
      })
      .onRequest('terminal/release', ({ params }) => {
        this.record({ method: 'terminal/release', params });
        this.terminal(params.terminalId).child.kill();
        this.terminals.delete(params.terminalId);
        return {};
      });
  }

  /** Resolves once the agent has called `method` (the test's timeout is the one limit). */
  called(method: string): Promise<void> {
    if (this.calls.some((c) => c.method === method)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ method, resolve }));
  }

  methods(prefix: string): string[] {
    return this.calls.map((c) => c.method).filter((m) => m.startsWith(prefix));
  }

  private record(call: { method: string; params: Record<string, unknown> }): void {
    this.calls.push(call);
    for (const waiter of this.waiters.filter((w) => w.method === call.method)) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }

  private terminal(id: string): Terminal {
    const terminal = this.terminals.get(id);
    if (!terminal) throw new Error(`no terminal ${id}`);
    return terminal;
  }
}
