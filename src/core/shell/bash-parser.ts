import { createRequire } from 'node:module';
import type { MessagePort, Worker } from 'node:worker_threads';
import { workerThreads } from '../lazy-builtins';
import { loadAstRuntime } from '../syntax/ast-langs';
import { PARSER_CHILD_SOURCE, PARSER_WORKER_SOURCE } from './parser-sources';
import { treeOfFlat, type FlatTree, type SyntaxNode } from './syntax-node';

/**
 * Parses shell text with tree-sitter-bash (@ast-grep/lang-bash, through @ast-grep/napi, registered
 * by the ast search's grammar loader), synchronously and within a budget of CPU time: the parse runs
 * in a parser process that is killed when it overruns (see parser-sources.ts). A few recent trees
 * are kept, since the danger gate, the judge and the command preparation read the same line.
 * `cpuMs`: what the parse cost (0 from the cache).
 */
export type ParseOutcome = { tree: SyntaxNode; cpuMs: number } | { failure: 'timeout' | 'unavailable'; reason: string };

/**
 * CPU milliseconds of tree-sitter's parse: generous for real commands (a 90 KB script parses in
 * about 50 ms), short for what makes its error recovery crawl.
 */
export function parseBudgetMs(length: number): number {
  return 100 + length / 250;
}

/** How long the first request may wait for the worker and the parser process to start. */
const START_MS = 15_000;
/**
 * On the clock: a parser process that has neither answered nor used up its CPU budget in this long
 * is stopped or starved, and is replaced. Only a machine far beyond busy comes near it.
 */
const STALL_MS = 30_000;
const CACHE_SIZE = 8;

class ParserHost {
  private worker: Worker | undefined;
  private port: MessagePort | undefined;
  private flag: Int32Array | undefined;
  private seq = 0;
  private warm = false;
  private unavailable: string | undefined;
  private exitHooked = false;
  private readonly cache = new Map<string, SyntaxNode>();

  parse(text: string, budgetMs: number): ParseOutcome {
    const cached = this.cache.get(text);
    if (cached) {
      this.cache.delete(text);
      this.cache.set(text, cached);
      return { tree: cached, cpuMs: 0 };
    }
    const outcome = this.request(text, Math.max(1, budgetMs));
    if ('tree' in outcome) {
      this.cache.set(text, outcome.tree);
      if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    }
    return outcome;
  }

  private request(text: string, budgetMs: number): ParseOutcome {
    if (this.unavailable) return { failure: 'unavailable', reason: this.unavailable };
    const started = this.start();
    if (started) return { failure: 'unavailable', reason: started };
    const seq = ++this.seq;
    this.worker!.postMessage({ seq, text, budgetMs });
    const limit = Date.now() + STALL_MS + (this.warm ? 2_000 : START_MS + 2_000);
    for (;;) {
      const seen = Atomics.load(this.flag!, 0);
      if (seen === seq) break;
      const left = limit - Date.now();
      if (left <= 0) {
        // The worker itself stopped answering: start afresh next time.
        this.stop();
        return { failure: 'timeout', reason: 'the shell parser did not answer' };
      }
      Atomics.wait(this.flag!, 0, seen, left);
    }
    const { receiveMessageOnPort } = workerThreads();
    for (let m = receiveMessageOnPort(this.port!); m; m = receiveMessageOnPort(this.port!)) {
      const message = m.message as { seq: number; line?: string; timeout?: boolean; stalled?: boolean; error?: string };
      if (message.seq !== seq) continue;
      if (message.timeout) return { failure: 'timeout', reason: `it could not be read within ${Math.round(budgetMs)} ms of CPU time` };
      if (message.stalled) return { failure: 'timeout', reason: `the shell parser did not answer in ${STALL_MS / 1000} s` };
      if (message.error !== undefined || message.line === undefined) return { failure: 'unavailable', reason: message.error ?? 'the shell parser gave no answer' };
      this.warm = true;
      const answer = JSON.parse(message.line) as Partial<FlatTree> & { error?: string; cpuMs?: number };
      if (answer.error !== undefined || !answer.kinds || !answer.nodes) return { failure: 'unavailable', reason: answer.error ?? 'the shell parser gave no tree' };
      return { tree: treeOfFlat(answer as FlatTree), cpuMs: answer.cpuMs ?? 0 };
    }
    return { failure: 'unavailable', reason: 'the shell parser gave no answer' };
  }

  /** Starts the worker once; the reason when the grammar cannot be had here. */
  private start(): string | undefined {
    if (this.worker) return undefined;
    const runtime = loadAstRuntime();
    if ('error' in runtime) return (this.unavailable = runtime.error);
    const bash = runtime.registrations.bash;
    if (!bash || runtime.unavailable.has('bash')) return (this.unavailable = runtime.unavailable.get('bash') ?? '@ast-grep/lang-bash is not installed');
    let napiPath: string;
    try {
      napiPath = createRequire(__filename).resolve('@ast-grep/napi');
    } catch (err) {
      return (this.unavailable = `@ast-grep/napi could not be found (${(err as Error).message})`);
    }
    const registration = { libraryPath: bash.libraryPath, extensions: bash.extensions, languageSymbol: bash.languageSymbol, expandoChar: bash.expandoChar };
    const { MessageChannel, Worker } = workerThreads();
    const { port1, port2 } = new MessageChannel();
    // [0]: the number of the last answered request; [1]: the parser process's pid.
    const state = new SharedArrayBuffer(8);
    this.flag = new Int32Array(state);
    if (!this.exitHooked) {
      this.exitHooked = true;
      process.once('exit', () => {
        const pid = this.flag ? Atomics.load(this.flag, 1) : 0;
        try {
          if (pid > 0) process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      });
    }
    this.port = port1;
    this.worker = new Worker(PARSER_WORKER_SOURCE, {
      eval: true,
      workerData: {
        port: port2,
        state,
        // Inside VS Code the extension host's executable is Electron: this makes it Node.
        execPath: process.execPath,
        args: ['-e', PARSER_CHILD_SOURCE, napiPath, JSON.stringify(registration)],
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
        startMs: START_MS,
        stallMs: STALL_MS,
      },
      transferList: [port2],
    });
    this.worker.unref();
    this.worker.on('error', () => this.stop());
    return undefined;
  }

  private stop(): void {
    void this.worker?.terminate();
    this.port?.close();
    this.worker = undefined;
    this.port = undefined;
    this.warm = false;
  }
}

const host = new ParserHost();

/** The syntax tree of `text`, or why there is none (it overran `budgetMs` of CPU time, or the parser cannot run here). */
export function parseBash(text: string, budgetMs = parseBudgetMs(text.length)): ParseOutcome {
  return host.parse(text, budgetMs);
}
