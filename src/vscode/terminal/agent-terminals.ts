import * as vscode from 'vscode';
import type { Agent } from '../../core/agent/agent';
import type { ThinkingLevel } from '../../core/config/thinking-level';
import type { AgentMode } from '../../core/ui';
import type { FrontEndStatus } from '../status/status-text';
import { AgentTerminal, type AgentTerminalOptions } from './agent-terminal';
import type { OpenTerminalsState } from './open-terminals-state';

export const AGENT_TERMINAL_NAME = 'OpenDev Agent';

/** What the extension's API exposes of the agent terminals (tests drive them through it). */
export interface AgentTerminalsApi {
  /** The open agent terminals, oldest first. */
  ids(): string[];
  /** Keystrokes into a terminal, exactly as VS Code passes typed keys to its pseudoterminal. */
  input(id: string, data: string): void;
  /** The plain text written to a terminal so far (colours and cursor moves removed). */
  screen(id: string): string;
  terminal(id: string): vscode.Terminal | undefined;
  /** The session a terminal's conversation is saved to (undefined before its first message). */
  sessionId(id: string): string | undefined;
  mode(id: string): AgentMode | undefined;
  /** Resolves once a terminal's tab has closed and its agent is disposed. */
  closed(id: string): Promise<void>;
}

/** `workingDir`: the folder a tab opened now works in (a multi-root workspace: the active editor's or the chat's). */
type SharedOptions = Omit<AgentTerminalOptions, 'name' | 'workingDir' | 'onStatus' | 'onTyping' | 'resumeSessionId'> & {
  workingDir: () => string | undefined;
  /** Where the open tabs are remembered, so a reload of the window brings them back (restore()). */
  state?: OpenTerminalsState;
};

/**
 * "Open OpenDev Terminal": each call opens a new tab ("OpenDev Agent", then "OpenDev Agent 2"…)
 * with an agent and a session of its own, alongside the chat. A tab closed by the user or by its
 * session (/exit) disposes its agent.
 */
export class AgentTerminals implements AgentTerminalsApi, vscode.Disposable {
  private readonly tabs = new Map<string, AgentTerminal>();
  private readonly endings = new Map<string, Promise<void>>();
  private readonly closedWaiters = new Map<string, () => void>();
  private readonly subscription: vscode.Disposable;
  private readonly statusChanged = new vscode.EventEmitter<string>();
  /** A tab's status (mode, busy, context, cost) changed: its id. */
  readonly onDidChangeStatus = this.statusChanged.event;
  private readonly typing = new vscode.EventEmitter<string>();
  /** The user typed in a tab (its id): the front end in use, even when it already was the active terminal. */
  readonly onDidType = this.typing.event;
  private counter = 0;

  constructor(private readonly options: SharedOptions) {
    this.subscription = vscode.window.onDidCloseTerminal((closed) => {
      for (const [id, tab] of this.tabs) {
        if (tab.terminal !== closed) continue;
        // The window is going away (a reload): the tabs it closes are the ones to bring back. Only
        // ours count: the pty host's own terminals close and revive on their own terms.
        if (closed.exitStatus?.reason === vscode.TerminalExitReason.Shutdown) this.options.state?.freeze();
        this.close(id, tab);
      }
    });
  }

  /**
   * Opens a new tab and gives it the focus (the user asked for it); with `resume`, a tab continuing
   * that saved session without taking the focus (a reload brings it back). Undefined without a folder.
   */
  open(resume?: { sessionId: string; name: string }): string | undefined {
    const workingDir = this.options.workingDir();
    if (!workingDir) {
      void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: open a folder first; the OpenDev terminal works on the files of a workspace folder.'));
      return undefined;
    }
    const id = `agent-${++this.counter}`;
    const name = resume && !this.names().has(resume.name) ? resume.name : this.freeName();
    const onStatus = () => {
      this.remember(); // the session id is known from the first message on, and changes with /clear
      this.statusChanged.fire(id);
    };
    const tab = new AgentTerminal({ ...this.options, workingDir, name, onStatus, onTyping: () => this.typing.fire(id), ...(resume ? { resumeSessionId: resume.sessionId } : {}) });
    this.tabs.set(id, tab);
    this.endings.set(id, new Promise<void>((resolve) => this.closedWaiters.set(id, resolve)));
    tab.terminal.show(resume !== undefined);
    void tab.run().catch((err: unknown) => {
      void vscode.window.showErrorMessage(vscode.l10n.t('OpenDev terminal: {0}', (err as Error).message));
      tab.terminal.dispose();
    });
    return id;
  }

  /** Reopens the tabs open when the window last went away, each continuing its session; their ids. */
  restore(): string[] {
    const saved = this.options.state?.read() ?? [];
    return saved.map((tab) => this.open(tab)).filter((id): id is string => id !== undefined);
  }

  ids(): string[] {
    return [...this.tabs.keys()];
  }

  input(id: string, data: string): void {
    this.tabs.get(id)?.type(data);
  }

  screen(id: string): string {
    return this.tabs.get(id)?.screen() ?? '';
  }

  terminal(id: string): vscode.Terminal | undefined {
    return this.tabs.get(id)?.terminal;
  }

  sessionId(id: string): string | undefined {
    return this.tabs.get(id)?.sessionId;
  }

  mode(id: string): AgentMode | undefined {
    return this.tabs.get(id)?.mode;
  }

  closed(id: string): Promise<void> {
    return this.endings.get(id) ?? Promise.resolve();
  }

  /** The id of the tab `terminal` is, if it is one of ours. */
  idOf(terminal: vscode.Terminal | undefined): string | undefined {
    for (const [id, tab] of this.tabs) if (tab.terminal === terminal) return id;
    return undefined;
  }

  status(id: string): FrontEndStatus | undefined {
    return this.tabs.get(id)?.status();
  }

  /** Settings or keys changed: each tab's next line runs on an agent built with them, its conversation carried over (unless `stillHolds` for its agent). */
  invalidate(stillHolds?: (agent: Agent) => boolean): void {
    for (const tab of this.tabs.values()) tab.invalidate(stillHolds);
  }

  /** The `opendev.thinkingLevel` setting changed: it applies to every tab at once. */
  setThinkingLevel(level: ThinkingLevel): void {
    for (const tab of this.tabs.values()) tab.setThinkingLevel(level);
  }

  dispose(): void {
    // Deactivation: the window goes (or the extension is reloaded); the open tabs come back next time.
    this.options.state?.freeze();
    this.subscription.dispose();
    for (const [id, tab] of this.tabs) {
      this.close(id, tab);
      tab.terminal.dispose();
    }
    this.statusChanged.dispose();
    this.typing.dispose();
  }

  private close(id: string, tab: AgentTerminal): void {
    this.tabs.delete(id);
    this.remember();
    this.statusChanged.fire(id);
    const resolve = this.closedWaiters.get(id);
    this.closedWaiters.delete(id);
    void tab.dispose().finally(() => {
      resolve?.();
      this.endings.delete(id);
    });
  }

  /** The open tabs that have a saved session, for the next reload. */
  private remember(): void {
    const open = [...this.tabs.values()].flatMap((tab) => {
      const sessionId = tab.resumableSessionId;
      return sessionId ? [{ name: tab.terminal.name, sessionId }] : [];
    });
    this.options.state?.write(open);
  }

  private names(): Set<string> {
    return new Set([...this.tabs.values()].map((t) => t.terminal.name));
  }

  /** "OpenDev Agent" while it is the only one; otherwise the lowest free number. */
  private freeName(): string {
    const taken = this.names();
    if (!taken.has(AGENT_TERMINAL_NAME)) return AGENT_TERMINAL_NAME;
    for (let n = 2; ; n++) if (!taken.has(`${AGENT_TERMINAL_NAME} ${n}`)) return `${AGENT_TERMINAL_NAME} ${n}`;
  }
}
