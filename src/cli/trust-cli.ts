// `opendev trust [--show] [--yes]` and `opendev untrust`: the folder's trust from the command line,
// without a model or a key. `trust` shows what the folder's configuration wants to do and asks
// (`--yes` answers for a person who has read `--show`), then asks for each endpoint the project
// chose whether the user's key may go there. Exit codes: 0 done, 1 not trusted / not saved, 2 usage.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveOpendevHome } from '../core/config/opendev-home';
import { projectTrustRequests } from '../core/session/trust-requests';
import { readProjectTrust, trustProject, untrustProject } from '../core/trust/project-trust';
import { confirmEndpoint, endpointConfirmation } from '../core/trust/trust-store';
import { parseCliArgs } from './args';
import { askLine, isYes } from './ask-line';
import { describeRequests, endpointQuestion } from './folder-trust';
import { TRUST_HELP } from './help';
import { EXIT } from './print-mode';
import { readCliSettingsFiles, resolveCliSettings } from './settings-from-env';

export interface TrustCliIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  input: NodeJS.ReadableStream;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** `argv` starts with `trust` or `untrust`. */
export async function runTrustCli(argv: readonly string[], io: TrustCliIo): Promise<number> {
  let values: { show?: boolean; yes?: boolean; help?: boolean; 'working-dir'?: string };
  try {
    ({ values } = parseArgs({
      args: argv.slice(1),
      options: { show: { type: 'boolean' }, yes: { type: 'boolean', short: 'y' }, help: { type: 'boolean', short: 'h' }, 'working-dir': { type: 'string', short: 'C' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    io.stderr(`opendev ${argv[0]}: ${(err as Error).message}\nRun "opendev trust --help" for usage.\n`);
    return EXIT.usage;
  }
  if (values.help) {
    io.stdout(`${TRUST_HELP}\n`);
    return EXIT.ok;
  }
  const workspaceRoot = resolve(io.cwd, values['working-dir'] ?? '.');
  if (!existsSync(workspaceRoot) || !statSync(workspaceRoot).isDirectory()) {
    io.stderr(`opendev ${argv[0]}: ${workspaceRoot} is not a folder\n`);
    return EXIT.usage;
  }
  const where = { home: resolveOpendevHome(io.env), workspaceRoot };
  if (argv[0] === 'untrust') {
    const problem = await untrustProject(where);
    if (problem) return fail(io, problem);
    io.stdout(`${workspaceRoot} is no longer trusted: its configuration is ignored (and asked about) from the next session on.\n`);
    return EXIT.ok;
  }

  const trust = readProjectTrust(where);
  if (trust.problem) return fail(io, `${where.home}/trust.json cannot be used (${trust.problem}); fix or delete it.`);
  const settings = (projectTrusted: boolean) =>
    resolveCliSettings({
      options: parseCliArgs([]),
      env: io.env,
      interactive: true,
      files: readCliSettingsFiles(io.env, workspaceRoot),
      projectTrusted,
      endpointConfirmed: endpointConfirmation(where.home),
    });
  const requests = projectTrustRequests({ ...where, settings: settings(false).untrusted });
  const state = trust.trusted ? 'trusted' : trust.state === 'changed' ? `not trusted: changed since you trusted it (${trust.changed.join(', ')})` : 'not trusted';
  if (requests.length === 0) io.stdout(`The OpenDev configuration of ${workspaceRoot} asks for nothing that needs your trust (${state}).\n`);
  else io.stdout(`${describeRequests(trust, requests, workspaceRoot)}\nThis folder is ${state}.\n`);
  if (values.show) {
    for (const e of settings(true).unconfirmedEndpoints) io.stdout(`Not confirmed yet: ${endpointQuestion(e)}\n`);
    return EXIT.ok;
  }

  const ask = async (question: string) => values.yes || isYes(await askLine(`${question} [y/N] `, { input: io.input, output: io.stdout }));
  if (!trust.trusted) {
    if (!(await ask('Trust this configuration?'))) {
      io.stdout('Not trusted.\n');
      return EXIT.failure;
    }
    const problem = await trustProject(where, trust.fingerprint);
    if (problem) return fail(io, problem);
    io.stdout(`Trusted: ${workspaceRoot}, as its configuration is now. A change to any of its files asks again.\n`);
  }
  for (const endpoint of settings(true).unconfirmedEndpoints) {
    if (!(await ask(endpointQuestion(endpoint)))) {
      io.stdout(`Not confirmed: ${endpoint.baseUrl} is not used; requests go to your own endpoint.\n`);
      continue;
    }
    const problem = await confirmEndpoint(where.home, endpoint.provider, endpoint.baseUrl);
    if (problem) return fail(io, problem);
    io.stdout(`Confirmed: your key may go to ${endpoint.baseUrl}.\n`);
  }
  return EXIT.ok;
}

function fail(io: TrustCliIo, message: string): number {
  io.stderr(`opendev trust: ${message}\n`);
  return EXIT.failure;
}
