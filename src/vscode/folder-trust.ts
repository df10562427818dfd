// VS Code's side of the trust boundary (core/trust, DESIGN.md "Trust and containment"). A folder's
// configuration — its .vscode/settings.json opendev.* values, .opendev/, .claude/ and .mcp.json —
// acts with the user's authority only once VS Code trusts the folder (Workspace Trust) and the user
// trusted that configuration as it is now in OpenDev. Until then:
//   - the chat says once per session what was not applied and how to trust (a notice);
//   - a notification asks once per window and per content: Trust / Not now / Show details;
// and once trusted, each endpoint the folder chose is confirmed ("Send your key to …?") before any
// request goes there. Every answer rebuilds the agents before their next message.
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { PROVIDER_LABELS } from '../core/config/provider-settings';
import { endpointRoleName as roleName, type ProjectEndpoint } from '../core/config/layered-settings';
import { formatTrustRequests, type TrustRequest } from '../core/session/trust-requests';
import { projectFingerprint } from '../core/trust/project-files';
import { trustProject, untrustProject } from '../core/trust/project-trust';
import { confirmEndpoint, endpointKey } from '../core/trust/trust-store';
import { NO_LOGGER, type Logger } from '../core/logger';
import { localFolders } from './chat-folder';
import { readFolderTrust, untrustedWhy, type FolderTrustState } from './settings';

export const TRUST_COMMAND = 'opendev.trustFolder';
export const UNTRUST_COMMAND = 'opendev.untrustFolder';
const TRUST_HINT = 'To review and trust it: "OpenDev: Trust Folder Configuration…" in the Command Palette.';
const MANAGE_HINT = 'To use it, trust the folder in VS Code (Manage Workspace Trust)';
/** How many requests the notification names before "and N more" (Show details lists them all). */
const CARD_ITEMS = 3;

/** What a new agent is built with: whether the folder's configuration applies, and the chat's notices. */
export interface AgentTrust {
  projectTrusted: boolean;
  notices: string[];
}

export class FolderTrustPrompts {
  /** Folder and fingerprint of each configuration the notification asked about in this window. */
  private readonly offered = new Set<string>();
  /** Endpoints asked about in this window ("Don't send" is not asked again at every new agent). */
  private readonly askedEndpoints = new Set<string>();
  /** Notices each session has shown (an agent rebuilt in the same session does not repeat them). */
  private readonly told = new Set<string>();
  /** Per folder: the configuration files' content the last agent was built with, or the watcher last reported. */
  private readonly lastSeen = new Map<string, string>();

  /** `onTrustChanged`: the agents rebuild before their next message; `log`: every decision, for the log. */
  constructor(
    private readonly onTrustChanged: () => void,
    private readonly log: Logger = NO_LOGGER,
  ) {
    for (const folder of localFolders()) this.lastSeen.set(folder.uri.fsPath, this.filesNow(folder.uri.fsPath));
  }

  /**
   * The watcher reported a configuration file: true when its content differs from what the agents
   * were last built with (the watcher's events may come after a new agent already read the file;
   * rebuilding then would only lose that session's answers, such as which MCP servers may start).
   */
  configFilesChanged(): boolean {
    let changed = false;
    for (const folder of localFolders().map((f) => f.uri.fsPath)) {
      const now = this.filesNow(folder);
      if (now === this.lastSeen.get(folder)) continue;
      this.lastSeen.set(folder, now);
      changed = true;
    }
    return changed;
  }

  /**
   * Folders added to the workspace start from their configuration as it is (the agents built later
   * read it; nothing was built with an older one), and removed ones are forgotten.
   */
  foldersChanged(added: readonly vscode.WorkspaceFolder[], removed: readonly vscode.WorkspaceFolder[]): void {
    for (const folder of removed) this.lastSeen.delete(folder.uri.fsPath);
    for (const folder of added) if (folder.uri.scheme === 'file') this.lastSeen.set(folder.uri.fsPath, this.filesNow(folder.uri.fsPath));
  }

  private filesNow(folder: string): string {
    return JSON.stringify(projectFingerprint(folder));
  }

  /**
   * Before a new agent is built: endpoints of a trusted folder asked about (awaited: no request may
   * go there before the answer), the notification offered when the folder asks for trust (not
   * awaited), and the notices `sessionId` has not shown yet.
   */
  async beforeAgent(sessionId: string | undefined, folder: vscode.WorkspaceFolder): Promise<AgentTrust> {
    // The agent's own folder: in a multi-root workspace another folder's trust never carries over.
    let state = readFolderTrust(folder);
    if (!state) return { projectTrusted: false, notices: [] };
    // The files changed before their watcher said so: the other agents were built with the old content.
    const files = this.filesNow(state.folder);
    if (files !== this.lastSeen.get(state.folder)) {
      this.lastSeen.set(state.folder, files);
      this.onTrustChanged();
    }
    if (state.trusted && state.layered.unconfirmedEndpoints.some((e) => !this.askedEndpoints.has(endpointId(e)))) {
      if (await this.confirmEndpoints(state, false)) state = readFolderTrust(folder) ?? state;
    }
    if (!state.trust.trusted && state.requests.length > 0) this.offer(state);
    const notices = noticesOf(state).filter((text) => sessionId === undefined || !this.told.has(`${sessionId}\0${text}`));
    return { projectTrusted: state.trusted, notices };
  }

  /** Whether the folder's configuration is, right now, the one the user trusted (checked after an agent loaded it). */
  stillTrusted(folder: vscode.WorkspaceFolder): boolean {
    return readFolderTrust(folder)?.trusted === true;
  }

  /** The agent of `sessionId` was built with these notices: the session has shown them. */
  noticesShown(sessionId: string | undefined, notices: readonly string[]): void {
    if (sessionId !== undefined) for (const text of notices) this.told.add(`${sessionId}\0${text}`);
  }

  /** A configuration file or the workspace's opendev.* values changed: a trusted folder that changed asks again, naming what changed. */
  recheck(): void {
    const state = readFolderTrust();
    if (state?.trust.state === 'changed' && state.requests.length > 0) this.offer(state);
  }

  /** "OpenDev: Trust Folder Configuration…": shows the whole list, asks, trusts; then the endpoints. */
  async trustCommand(): Promise<void> {
    const state = readFolderTrust();
    if (!state) {
      void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: open a folder first; trust belongs to a folder.'));
      return;
    }
    if (state.trust.trusted) {
      if (!state.editorTrusted) return this.explainRestrictedMode(vscode.l10n.t('OpenDev already trusts the configuration of {0}', state.folder));
      if (state.layered.unconfirmedEndpoints.length > 0) {
        await this.confirmEndpoints(state, true);
        return;
      }
      void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: the configuration of {0} is trusted as it is now.', state.folder));
      return;
    }
    if (state.requests.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: the configuration of {0} asks for nothing that needs your trust.', state.folder));
      return;
    }
    if (await this.askToTrust(state)) await this.trust(state);
  }

  /** "OpenDev: Stop Trusting Folder Configuration". */
  async untrustCommand(): Promise<void> {
    const state = readFolderTrust();
    if (!state) {
      void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: open a folder first; trust belongs to a folder.'));
      return;
    }
    const problem = await untrustProject(state.where);
    if (problem) {
      void vscode.window.showErrorMessage(vscode.l10n.t('OpenDev: {0}', problem));
      return;
    }
    for (const key of [...this.offered]) if (key.startsWith(`${state.folder}\0`)) this.offered.delete(key);
    this.log.info('trust: folder configuration untrusted', { folder: state.folder });
    this.onTrustChanged();
    void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: the configuration of {0} is no longer trusted; from the next message on it is not applied (and asked about).', state.folder));
  }

  /** The notification, once per window for each content of the configuration. */
  private offer(state: FolderTrustState): void {
    const key = `${state.folder}\0${JSON.stringify(state.trust.fingerprint)}`;
    if (this.offered.has(key)) return;
    this.offered.add(key);
    void this.card(state);
  }

  private async card(state: FolderTrustState): Promise<void> {
    const [trust, details] = [vscode.l10n.t('Trust'), vscode.l10n.t('Show details')];
    const answer = await vscode.window.showWarningMessage(cardText(state), trust, vscode.l10n.t('Not now'), details);
    this.log.info('trust: asked about the folder configuration', { folder: state.folder, state: state.trust.state, answer: answer ?? 'dismissed' });
    if (answer === trust || (answer === details && (await this.askToTrust(state)))) await this.trust(state);
  }

  /** The whole list in a modal dialog: Trust, or Cancel. */
  private async askToTrust(state: FolderTrustState): Promise<boolean> {
    const opening = state.trust.state === 'changed' ? vscode.l10n.t('It changed since you trusted it ({0}). It now wants to:', state.trust.changed.join(', ')) : vscode.l10n.t('It wants to:');
    const detail = [
      formatTrustRequests(state.requests, opening),
      '',
      vscode.l10n.t('Trust applies to these files as they are now: a change to any of them asks again. An endpoint it chooses still asks before your API key goes there.'),
    ].join('\n');
    const trust = vscode.l10n.t('Trust');
    const answer = await vscode.window.showWarningMessage(vscode.l10n.t('Trust the OpenDev configuration of {0}?', basename(state.folder)), { modal: true, detail }, trust);
    return answer === trust;
  }

  /** Trusts the configuration as it was shown (not as it may be by now), then asks about its endpoints. */
  private async trust(state: FolderTrustState): Promise<void> {
    const problem = await trustProject(state.where, state.trust.fingerprint);
    if (problem) {
      this.log.warn('trust: could not save the trust', { folder: state.folder, problem });
      void vscode.window.showErrorMessage(vscode.l10n.t('OpenDev: {0}', problem));
      return;
    }
    this.log.info('trust: folder configuration trusted', { folder: state.folder, workspaceTrusted: vscode.workspace.isTrusted });
    this.onTrustChanged();
    if (!vscode.workspace.isTrusted) return this.explainRestrictedMode(vscode.l10n.t('OpenDev now trusts the configuration of {0}', state.folder));
    const now = readFolderTrust(vscode.workspace.getWorkspaceFolder(vscode.Uri.file(state.folder)));
    if (now?.trust.state === 'changed') {
      void vscode.window.showWarningMessage(vscode.l10n.t('OpenDev: the configuration of {0} changed while you were asked ({1}); it is not trusted.', state.folder, now.trust.changed.join(', ')));
      return;
    }
    void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: the configuration of {0} is trusted as it is now; a change to any of its files asks again.', state.folder));
    if (now) await this.confirmEndpoints(now, true);
  }

  /** Workspace Trust comes first: say so and open VS Code's own page for it. */
  private async explainRestrictedMode(done: string): Promise<void> {
    void vscode.window.showInformationMessage(
      vscode.l10n.t("{0}, but VS Code's Restricted Mode is on for this folder: the configuration applies once you trust the folder in VS Code too (Manage Workspace Trust, opening now).", done),
    );
    await vscode.commands.executeCommand('workbench.trust.manage');
  }

  /**
   * "Send your <provider> API key to <url>?" for each endpoint the trusted folder chose that the user
   * has not confirmed (`again`: also those already asked in this window). True when one was confirmed.
   */
  private async confirmEndpoints(state: FolderTrustState, again: boolean): Promise<boolean> {
    let confirmed = false;
    for (const endpoint of state.layered.unconfirmedEndpoints) {
      const id = endpointId(endpoint);
      if (!again && this.askedEndpoints.has(id)) continue;
      this.askedEndpoints.add(id);
      const provider = PROVIDER_LABELS[endpoint.provider];
      const send = vscode.l10n.t('Send');
      const answer = await vscode.window.showWarningMessage(
        vscode.l10n.t('Send your {0} API key to {1}?', provider, endpoint.baseUrl),
        {
          modal: true,
          detail: vscode.l10n.t("This folder's settings ({0}) send the {1} model's requests there. OpenDev sends your key only to endpoints you confirm; until then the requests go to your own endpoint.", endpoint.source, roleName(endpoint)),
        },
        send,
        vscode.l10n.t("Don't send"),
      );
      this.log.info('trust: endpoint', { provider: endpoint.provider, baseUrl: endpoint.baseUrl, answer: answer ?? 'dismissed' });
      if (answer !== send) continue;
      const problem = await confirmEndpoint(state.where.home, endpoint.provider, endpoint.baseUrl);
      if (problem) void vscode.window.showErrorMessage(vscode.l10n.t('OpenDev: {0}', problem));
      else confirmed = true;
    }
    if (confirmed) this.onTrustChanged();
    return confirmed;
  }
}

/** The palette commands and the Workspace Trust event; `onTrustChanged` rebuilds the agents. */
export function registerFolderTrust(context: vscode.ExtensionContext, onTrustChanged: () => void, log: Logger = NO_LOGGER): FolderTrustPrompts {
  const prompts = new FolderTrustPrompts(onTrustChanged, log);
  context.subscriptions.push(
    vscode.commands.registerCommand(TRUST_COMMAND, () => prompts.trustCommand()),
    vscode.commands.registerCommand(UNTRUST_COMMAND, () => prompts.untrustCommand()),
    vscode.workspace.onDidChangeWorkspaceFolders(({ added, removed }) => prompts.foldersChanged(added, removed)),
    // Restricted Mode ends: the folder's configuration (if OpenDev trusts it too) applies from the next message.
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      log.info('trust: VS Code Workspace Trust granted');
      onTrustChanged();
      prompts.recheck();
    }),
  );
  return prompts;
}

/** The chat's notices for an agent built now: what is not applied and how to trust, and endpoints not used. */
function noticesOf(state: FolderTrustState): string[] {
  const out: string[] = [];
  if (!state.editorTrusted) {
    const opening = `VS Code's Restricted Mode is on for this folder, so OpenDev works with your own settings only: the folder's OpenDev configuration (opendev.* in its workspace settings, .opendev/, .claude/, .mcp.json) is not applied.`;
    const then = state.trust.trusted ? '.' : ', then its configuration in OpenDev ("OpenDev: Trust Folder Configuration…").';
    out.push(formatTrustRequests(state.requests, state.requests.length > 0 ? `${opening} It wants to:` : opening, `${MANAGE_HINT}${then}`));
  } else if (!state.trust.trusted && state.requests.length > 0) {
    out.push(formatTrustRequests(state.requests, `This folder's OpenDev configuration is not applied (${untrustedWhy(state)}). It wants to:`, TRUST_HINT));
  }
  for (const e of state.layered.unconfirmedEndpoints) {
    out.push(`Not used: ${e.baseUrl} (${e.source}, for the ${roleName(e)} model). Your ${PROVIDER_LABELS[e.provider]} key goes only to endpoints you confirmed; requests go to your own endpoint. ${TRUST_HINT.replace('review and trust it', 'confirm it')}`);
  }
  return out;
}

/** "This folder's OpenDev settings want to: send requests (with your API key) to http://…, run 2 hooks (SessionStart), …". */
function cardText(state: FolderTrustState): string {
  const named = state.requests.slice(0, CARD_ITEMS).map((r: TrustRequest) => r.what);
  const more = state.requests.length - named.length;
  const list = more > 0 ? vscode.l10n.t('{0} and {1} more', named.join(', '), more) : named.join(', ');
  const restricted = state.editorTrusted ? '' : vscode.l10n.t(" (VS Code's Restricted Mode is on: Trust opens Manage Workspace Trust)");
  return state.trust.state === 'changed'
    ? vscode.l10n.t("OpenDev: this folder's OpenDev settings changed since you trusted them ({0}). They now want to: {1}.{2}", state.trust.changed.join(', '), list, restricted)
    : vscode.l10n.t("OpenDev: this folder's OpenDev settings want to: {0}.{1}", list, restricted);
}

function endpointId(e: ProjectEndpoint): string {
  return `${e.provider} ${endpointKey(e.baseUrl)}`;
}
