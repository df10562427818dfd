import { Worker } from 'node:worker_threads';

/**
 * PDF.js runs in a worker thread of its own. Why: unpdf's PDF.js bundle assigns `globalThis.navigator`
 * when it loads, and VS Code's extension host (1.101+) defines `navigator` as a getter without a setter
 * (https://aka.ms/vscode-extensions/navigator), so loading it there throws "Cannot set property
 * navigator". A worker has a global scope of its own (Node's), untouched by the host.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let unpdf;
let pdf;
const ops = {
  async open({ bytes }) {
    unpdf ??= require(workerData.unpdf);
    // verbosity 0: PDF.js would print repair warnings ("Indexing all PDF objects") on the console.
    pdf = await unpdf.getDocumentProxy(bytes, { verbosity: 0 });
    const meta = await pdf.getMetadata().catch(() => undefined);
    const info = {};
    for (const [key, value] of Object.entries((meta && meta.info) || {})) if (typeof value === 'string') info[key] = value;
    return { pageCount: pdf.numPages, info };
  },
  async page({ page }) {
    const content = await (await pdf.getPage(page)).getTextContent();
    return content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\\n' : '') : '')).join('');
  },
  async close() {
    await pdf?.destroy();
  },
};
parentPort.on('message', async ({ id, op, args }) => {
  try {
    parentPort.postMessage({ id, result: await ops[op](args) });
  } catch (err) {
    parentPort.postMessage({ id, error: { name: (err && err.name) || 'Error', message: String((err && err.message) || err) } });
  }
});
`;

/** An error thrown in the worker, with PDF.js's exception name kept (pdfError words it by name). */
export class PdfWorkerError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

interface Reply {
  id: number;
  result?: unknown;
  error?: { name: string; message: string };
}

/** One document's worker: open it, read its pages, close it (which ends the worker). */
export class PdfWorker {
  private readonly worker: Worker;
  private next = 0;
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();

  /** `unpdf`: the path of unpdf's entry file (package-loader's packagePath). */
  constructor(unpdf: string) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { unpdf } });
    this.worker.on('message', (reply: Reply) => {
      const call = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (reply.error) call?.reject(new PdfWorkerError(reply.error.name, reply.error.message));
      else call?.resolve(reply.result);
    });
    // A worker that dies (out of memory, a crash in PDF.js) fails what waits on it rather than hanging.
    const fail = (err: Error) => {
      for (const call of this.waiting.values()) call.reject(err);
      this.waiting.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the PDF worker ended (exit code ${code})`)));
  }

  open(bytes: Uint8Array): Promise<{ pageCount: number; info: Record<string, string> }> {
    return this.call('open', { bytes }) as Promise<{ pageCount: number; info: Record<string, string> }>;
  }

  pageText(page: number): Promise<string> {
    return this.call('page', { page }) as Promise<string>;
  }

  async close(): Promise<void> {
    try {
      await this.call('close', {});
    } finally {
      await this.worker.terminate();
    }
  }

  private call(op: string, args: object): Promise<unknown> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, args });
    });
  }
}
