// The CLI's side of the trust boundary (core/trust): before the first turn, an interactive session
// shows what the folder's configuration wants to do and asks once; `opendev -p` never asks — it runs
// with the untrusted project layer and says what it ignored. Endpoints a trusted project chose are
// confirmed one by one ("send your key to …?"), in both cases before any request is made.
import { PROVIDER_LABELS } from '../core/config/provider-settings';
import { endpointRoleName, type ProjectEndpoint } from '../core/config/layered-settings';
import { formatTrustRequests, projectTrustRequests, type TrustRequest } from '../core/session/trust-requests';
import { readProjectTrust, trustProject, type ProjectTrust } from '../core/trust/project-trust';
import { confirmEndpoint, endpointConfirmation } from '../core/trust/trust-store';
import type { ProviderKind } from '../core/config/provider-settings';
import { askLine, isYes } from './ask-line';
import type { CliSettings } from './settings-from-env';

export interface FolderTrustIo {
  /** Where the questions and answers are: stdin/stdout of an interactive session. */
  input: NodeJS.ReadableStream;
  output: (text: string) => void;
  warn: (text: string) => void;
}

export interface SettledTrust {
  resolved: CliSettings;
  projectTrusted: boolean;
  /** For the first turn's front end (-p: stderr and a stream-json `notice`). */
  notices: string[];
}

export type ResolveWithTrust = (projectTrusted: boolean, endpointConfirmed: (provider: ProviderKind, baseUrl: string) => boolean) => CliSettings;

/** The settings of this run once the folder's trust is settled: asked when `io` can ask (interactive), else reported. */
export async function settleFolderTrust(where: { home: string; workspaceRoot: string }, resolve: ResolveWithTrust, io?: FolderTrustIo): Promise<SettledTrust> {
  const confirmed = () => endpointConfirmation(where.home);
  let trust = readProjectTrust(where);
  let resolved = resolve(trust.trusted, confirmed());
  const notices: string[] = [];
  if (trust.problem) notices.push(`${where.home}/trust.json cannot be used (${trust.problem}); no folder counts as trusted until it is fixed or deleted.`);
  if (!trust.trusted) {
    const requests = projectTrustRequests({ ...where, settings: resolved.untrusted });
    if (requests.length > 0 && io) {
      const answer = await askLine(`${describeRequests(trust, requests, where.workspaceRoot)}\nTrust this folder's configuration? [y/N] `, io);
      if (isYes(answer)) {
        const problem = await trustProject(where, trust.fingerprint);
        if (problem) io.warn(problem);
        trust = readProjectTrust(where);
        resolved = resolve(trust.trusted, confirmed());
      } else {
        io.output(`Not trusted: this session runs without the folder's configuration (\`opendev trust\` trusts it later).\n`);
      }
    } else if (requests.length > 0) {
      notices.push(formatTrustRequests(requests, openingOf(trust, where.workspaceRoot, 'ignored'), TRUST_HINT));
    }
  }
  if (resolved.unconfirmedEndpoints.length > 0) {
    if (io) {
      for (const endpoint of resolved.unconfirmedEndpoints) {
        if (isYes(await askLine(`${endpointQuestion(endpoint)} [y/N] `, io))) {
          const problem = await confirmEndpoint(where.home, endpoint.provider, endpoint.baseUrl);
          if (problem) io.warn(problem);
        }
      }
      resolved = resolve(trust.trusted, confirmed());
    }
    for (const e of resolved.unconfirmedEndpoints) {
      notices.push(`Not used: ${e.baseUrl} (${e.source}, for the ${endpointRoleName(e)} model) — your ${PROVIDER_LABELS[e.provider]} key is sent only to endpoints you confirmed. ${TRUST_HINT}`);
    }
  }
  return { resolved, projectTrusted: trust.trusted, notices };
}

export const TRUST_HINT = 'Run `opendev trust` in this folder to review and trust it.';

export function describeRequests(trust: ProjectTrust, requests: readonly TrustRequest[], workspaceRoot: string): string {
  return formatTrustRequests(requests, openingOf(trust, workspaceRoot, 'question'));
}

function openingOf(trust: ProjectTrust, workspaceRoot: string, kind: 'question' | 'ignored'): string {
  const changed = trust.state === 'changed' ? ` (changed since you trusted it: ${trust.changed.join(', ')})` : '';
  return kind === 'question'
    ? `The OpenDev configuration of ${workspaceRoot}${changed} wants to:`
    : `The OpenDev configuration of ${workspaceRoot} is not trusted${changed}, so it was not applied. It wants to:`;
}

export function endpointQuestion(e: ProjectEndpoint): string {
  return `Send your ${PROVIDER_LABELS[e.provider]} API key to ${e.baseUrl} (${e.source}, for the ${endpointRoleName(e)} model)?`;
}
