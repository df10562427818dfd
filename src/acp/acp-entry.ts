// `opendev acp`: OpenDev as an Agent Client Protocol agent on stdin/stdout (dist/acp.js, loaded by
// dist/cli.js only for this command). stdout is the protocol: every diagnostic goes to stderr.
import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { resolveOpendevHome } from '../core/config/opendev-home';
import { tightenOpendevHome } from '../core/config/private-home';
import { holdSecretEnv } from '../core/process/child-env';
import { stopSandboxRuntime } from '../core/sandbox/sandbox-runtime';
import { parseCliArgs, UsageError } from '../cli/args';
import { createAcpAgent } from './acp-agent';

const log = (text: string) => void process.stderr.write(`opendev acp: ${text}\n`);

// A library that prints would corrupt the protocol: what it says goes to stderr.
for (const method of ['log', 'info', 'debug'] as const) console[method] = (...args: unknown[]) => console.error(...args);

const ACP_HELP = `opendev acp: runs OpenDev as an Agent Client Protocol agent over stdin/stdout, for an editor
(Zed, JetBrains IDEs, Neovim…) to start. Takes the CLI's settings flags: --provider, --model,
--approval, --thinking, --max-iterations. Keys come from the environment, as for the CLI.
`;

async function runAcp(argv: string[]): Promise<number> {
  // Keys leave process.env before anything runs, so no child process can read them.
  const env = holdSecretEnv();
  let options;
  try {
    options = parseCliArgs(argv);
    if (options.prompt !== undefined) throw new UsageError('-p does not go with acp: the editor sends the prompts');
  } catch (err) {
    log(`${(err as Error).message}`);
    return 2;
  }
  if (options.help) {
    process.stderr.write(ACP_HELP);
    return 0;
  }
  const note = await tightenOpendevHome(resolveOpendevHome(env));
  if (note) log(note);
  const { app, dispose } = createAcpAgent({ options, argv, env, log });
  const stream = ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
  const connection = app.connect(stream);
  const stop = () => connection.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await connection.closed;
  await dispose();
  return 0;
}

runAcp(process.argv.slice(3)).then(
  async (code) => {
    await stopSandboxRuntime();
    process.exitCode = code;
    // A stray socket or timer must not keep the editor's agent process alive.
    setTimeout(() => process.exit(code), 2000).unref();
  },
  (err: unknown) => {
    log(`unexpected error: ${(err as Error).stack ?? String(err)}`);
    process.exit(1);
  },
);
