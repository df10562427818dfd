import * as vscode from 'vscode';
import type { Agent } from '../../core/agent/agent';
import type { ThinkingLevel } from '../../core/config/thinking-level';
import type { AgentMode } from '../../core/ui';
import type { FrontEndStatus } from '../status/status-text';
import { AgentTerminal, type AgentTerminalOptions } from './agent-terminal';

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

type SharedOptions = Omit<AgentTerminalOptions, 'name' | 'workingDir' | 'onStatus' | 'onTyping'> & { workingDir: string | undefined };

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
      for (const [id, tab] of this.tabs) if (tab.terminal === closed) this.close(id, tab);
    });
  }

  /** Opens a new tab and gives it the focus (the user asked for it). Undefined without a folder. */
  open(): string | undefined {
    const workingDir = this.options.workingDir;
    if (!workingDir) {
      void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: open a folder first; the OpenDev terminal works on the files of a workspace folder.'));
      return undefined;
    }
    const id = `agent-${++this.counter}`;
    const tab = new AgentTerminal({ ...this.options, workingDir, name: this.freeName(), onStatus: () => this.statusChanged.fire(id), onTyping: () => this.typing.fire(id) });
    this.tabs.set(id, tab);
    this.endings.set(id, new Promise<void>((resolve) => this.closedWaiters.set(id, resolve)));
    tab.terminal.show(false);
    void tab.run().catch((err: unknown) => {
      void vscode.window.showErrorMessage(vscode.l10n.t('OpenDev terminal: {0}', (err as Error).message));
      tab.terminal.dispose();
    });
    return id;
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
    this.statusChanged.fire(id);
    const resolve = this.closedWaiters.get(id);
    this.closedWaiters.delete(id);
    void tab.dispose().finally(() => {
      resolve?.();
      this.endings.delete(id);
    });
  }

  /** "OpenDev Agent" while it is the only one; otherwise the lowest free number. */
  private freeName(): string {
    const taken = new Set([...this.tabs.values()].map((t) => t.terminal.name));
    if (!taken.has(AGENT_TERMINAL_NAME)) return AGENT_TERMINAL_NAME;
    for (let n = 2; ; n++) if (!taken.has(`${AGENT_TERMINAL_NAME} ${n}`)) return `${AGENT_TERMINAL_NAME} ${n}`;
  }
}
