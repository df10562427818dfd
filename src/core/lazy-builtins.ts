// Node's own modules that a session does not need before its first model request, each required on
// first use: esbuild turns a top-level import into a require that runs as the bundle loads, and
// `opendev -p` then pays for starting processes, workers and DNS before anything of those happens.
// Call these where the module is used, never at module level.
/* eslint-disable @typescript-eslint/no-require-imports */
import type * as ChildProcess from 'node:child_process';
import type * as DnsPromises from 'node:dns/promises';
import type * as Readline from 'node:readline';
import type * as WorkerThreads from 'node:worker_threads';

/** Processes: commands, git, ripgrep, hooks, the sandbox's probe, the system opener. */
export const childProcess = (): typeof ChildProcess => require('node:child_process');

/** The shell parser's worker. */
export const workerThreads = (): typeof WorkerThreads => require('node:worker_threads');

/** The web tools' address guard. */
export const dnsPromises = (): typeof DnsPromises => require('node:dns/promises');

/** The REPL's line editor. */
export const readline = (): typeof Readline => require('node:readline');
