// Consent before a server the PROJECT defines (.mcp.json, .opendev/settings.json) first starts:
// cloning a repository must not be enough to run a command from it. The user is asked through the
// front end's approval path: Allow (this session), Always (remembered in the user's trust file for
// this workspace and this exact definition) or Deny (not started, not asked again this session).
// The user's own servers never ask, and neither does an explicit action (/mcp connect, /mcp test,
// the view's Connect): the user asked for that server. The approval level does not apply: `auto`
// trusts the agent's calls, not code that arrived with the repository. With nobody to ask
// (`opendev -p`) a project server stays stopped and the user is told how to allow it.
import type { UICallback } from '../ui';
import { mcpText } from './mcp-texts';
import { commandLine, definitionHash, forgetTrust, isTrusted, readTrustFile, rememberTrust, serverDefinition, trustFile, trustWorkspace } from './mcp-trust-store';
import type { McpServerEntry, McpTrustState } from './mcp-types';
import { SerialQueue } from '../serial-queue';

export interface McpTrustGateOptions {
  home: string;
  workspaceRoot: string;
  /** The front end of the running turn (the session's relay); it asks the question. */
  ui?: UICallback;
  /** Nobody can answer (`opendev -p`): project servers start only when trusted before. */
  unattended?: boolean;
  /**
   * The user trusted the folder's configuration (core/trust): that covers the servers it defines, as
   * long as the files that define them are what was trusted (a Refresh re-reads them). Asked at every check.
   */
  workspaceTrusted?: () => boolean;
  /** A problem the user should know of (a broken trust file, a trust that could not be saved). */
  onWarning?: (message: string) => void;
}

export type TrustVerdict = { ok: true } | { ok: false; why: 'declined' | 'unattended' };

export class McpTrustGate {
  /** This session's answers, by server and definition hash (a changed definition asks again). */
  private readonly answers = new Map<string, 'allowed' | 'declined'>();
  private readonly told = new Set<string>();
  private readonly pending = new Map<string, Promise<TrustVerdict>>();
  /** One question at a time, even when several servers start at once. */
  private readonly asking = new SerialQueue();
  private readonly workspace: string;
  private readonly file: string;
  private lastProblem: string | undefined;

  constructor(private readonly options: McpTrustGateOptions) {
    this.workspace = trustWorkspace(options.workspaceRoot);
    this.file = trustFile(options.home);
  }

  /** Undefined for the user's own servers, which never ask. */
  state(entry: McpServerEntry): McpTrustState | undefined {
    if (entry.source === 'user') return undefined;
    if (this.options.workspaceTrusted?.() || this.remembered(entry)) return 'trusted';
    const answer = this.answers.get(this.key(entry));
    return answer ?? 'ask';
  }

  /** An explicit action of the user's on this server (connect, test, tools): consent for the session. */
  allowForSession(entry: McpServerEntry): void {
    if (entry.source !== 'user') this.answers.set(this.key(entry), 'allowed');
  }

  /** Whether the server may start now, asking the user the first time. */
  async check(entry: McpServerEntry, signal?: AbortSignal): Promise<TrustVerdict> {
    const state = this.state(entry);
    if (state === undefined || state === 'allowed' || state === 'trusted') return { ok: true };
    if (state === 'declined') return { ok: false, why: 'declined' };
    const key = this.key(entry);
    let verdict = this.pending.get(key);
    if (!verdict) {
      verdict = this.inTurn(() => this.ask(entry, signal)).finally(() => this.pending.delete(key));
      this.pending.set(key, verdict);
    }
    return verdict;
  }

  /** `/mcp trust <name>`: remembered for this workspace and this definition. */
  async remember(entry: McpServerEntry): Promise<{ ok: boolean; message: string }> {
    if (entry.source === 'user') return { ok: true, message: `MCP server "${entry.name}" is defined in your own settings (${entry.file}): it never asks before starting.` };
    const problem = await rememberTrust(this.file, this.trustKey(entry), commandLine(entry.config));
    if (problem) return { ok: false, message: problem };
    this.answers.set(this.key(entry), 'allowed');
    return {
      ok: true,
      message: `MCP server "${entry.name}" from ${entry.file} is trusted in ${this.workspace}: \`${commandLine(entry.config)}\` starts without asking until its definition changes.`,
    };
  }

  /** `/mcp untrust <name>`: forgotten, and this session's answer too; the next start asks again. */
  async forget(entry: McpServerEntry, running: boolean): Promise<{ ok: boolean; message: string }> {
    if (entry.source === 'user') return { ok: true, message: `MCP server "${entry.name}" is defined in your own settings (${entry.file}); only servers a project defines ask before starting.` };
    const problem = await forgetTrust(this.file, this.workspace, entry.name);
    if (problem) return { ok: false, message: problem };
    for (const key of [...this.answers.keys()]) if (key.startsWith(`${entry.name}\0`)) this.answers.delete(key);
    this.told.delete(entry.name);
    const still = running ? ` It keeps running in this session until it is disconnected.` : '';
    return { ok: true, message: `MCP server "${entry.name}" is no longer trusted in ${this.workspace}: it asks before its next start.${still}` };
  }

  private async ask(entry: McpServerEntry, signal?: AbortSignal): Promise<TrustVerdict> {
    // A trust given meanwhile (another question in the queue, `opendev mcp trust` elsewhere) counts.
    const now = this.state(entry);
    if (now === 'allowed' || now === 'trusted') return { ok: true };
    if (now === 'declined') return { ok: false, why: 'declined' };
    const ui = this.options.ui;
    if (this.options.unattended || !ui?.requestApproval) {
      this.tellOnce(entry, ui);
      return { ok: false, why: 'unattended' };
    }
    const line = commandLine(entry.config);
    const decision = await ui.requestApproval(
      {
        kind: 'tool',
        toolName: `MCP server ${entry.name}`,
        title: `Start MCP server ${entry.name} from ${entry.file}: \`${line}\`?`,
        args: JSON.stringify(serverDefinition(entry.config)),
      },
      signal ?? new AbortController().signal,
    );
    const key = this.key(entry);
    if (decision.action === 'allow' || decision.action === 'always') {
      this.answers.set(key, 'allowed');
      if (decision.action === 'always') {
        const problem = await rememberTrust(this.file, this.trustKey(entry), line);
        if (problem) this.warn(`MCP server "${entry.name}" is allowed for this session only: ${problem}`, ui);
      }
      return { ok: true };
    }
    this.answers.set(key, 'declined');
    return { ok: false, why: 'declined' };
  }

  /** Told once per server and session: why it did not start, and how to allow it. */
  private tellOnce(entry: McpServerEntry, ui: UICallback | undefined): void {
    if (this.told.has(entry.name)) return;
    this.told.add(entry.name);
    this.warn(
      `MCP server "${entry.name}" (${entry.file}) was not started: servers a project defines start only with your consent, and nobody could give it here. ` +
        `Allow it with \`opendev mcp trust ${entry.name}\` in ${this.workspace} (or /mcp trust ${entry.name} in an interactive session).`,
      ui,
    );
  }

  private remembered(entry: McpServerEntry): boolean {
    const read = readTrustFile(this.file);
    if (read.status === 'ok') return isTrusted(read.records, this.trustKey(entry));
    // Reported once per problem; a broken file trusts nothing.
    if (read.problem !== this.lastProblem) {
      this.lastProblem = read.problem;
      this.warn(`${this.file} cannot be used (${read.problem}); project MCP servers ask as if nothing were trusted. Fix or delete the file.`, this.options.ui);
    }
    return false;
  }

  private warn(message: string, ui: UICallback | undefined): void {
    if (ui?.onNotice) ui.onNotice(message, 'warning');
    else this.options.onWarning?.(message);
  }

  private inTurn<T>(ask: () => Promise<T>): Promise<T> {
    return this.asking.run(ask);
  }

  private trustKey(entry: McpServerEntry) {
    return { workspace: this.workspace, server: entry.name, hash: definitionHash(entry.config) };
  }

  private key(entry: McpServerEntry): string {
    return `${entry.name}\0${definitionHash(entry.config)}`;
  }
}

/** Why a project server did not start, for the model (templates/mcp/texts.md). */
export function notAllowedReason(why: 'declined' | 'unattended'): string {
  return mcpText(why === 'declined' ? 'not_allowed_declined' : 'not_allowed_unattended');
}
