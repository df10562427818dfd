import * as vscode from 'vscode';
import type { CommandTerminalPort, CommandView } from '../../core/host';
import { OutputPty } from './output-pty';
import { LastCommand } from './last-command';
import type { BackgroundTaskView } from '../../shared/protocol';

export const SHARED_TERMINAL_NAME = 'OpenDev';
const BOLD = '\x1b[1m';
const DIM = '\x1b[2m';
const RESET = '\x1b[0m';
const GREEN = '\x1b[32m';
const RED = '\x1b[31m';
const YELLOW = '\x1b[33m';

type Outcome = Parameters<CommandView['end']>[0];

/** What the extension's API exposes of the terminal view (tests read the transcripts). */
export interface TerminalViewApi {
  /** Plain text (bounded) of the shared "OpenDev" terminal, or of a background task's tab. */
  transcript(taskId?: string): string;
  /** Background tasks that have a tab open, oldest first. */
  taskIds(): string[];
  /** The tab of a background task. */
  taskTerminal(taskId: string): vscode.Terminal | undefined;
}

interface BackgroundTab {
  terminal: vscode.Terminal;
  pty: OutputPty;
  command: string;
  closed: boolean;
  /** The task has not ended yet (the chat's indicator lists it). */
  running: boolean;
  onClose: () => void;
}

/**
 * The VS Code side of the terminal port: every foreground command the agent runs appears in one
 * shared "OpenDev" terminal (`$ command` in bold, its output live, then how it ended); each
 * background task gets a tab of its own named after its command. Terminals are write-only
 * pseudo-terminals created lazily, and never take the focus. Closing a task's tab (or Ctrl+C in it)
 * kills the task.
 */
export class OpenDevTerminals implements CommandTerminalPort, TerminalViewApi, vscode.Disposable {
  private shared: { terminal: vscode.Terminal; pty: OutputPty } | undefined;
  private readonly tabs = new Map<string, BackgroundTab>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly last = new LastCommand();
  private readonly tasksChanged = new vscode.EventEmitter<void>();
  /** Fires when a background task starts, ends or its tab closes. */
  readonly onDidChange = this.tasksChanged.event;

  constructor() {
    this.subscriptions.push(
      vscode.window.onDidCloseTerminal((closed) => {
        if (this.shared?.terminal === closed) {
          this.shared.pty.dispose();
          this.shared = undefined;
        }
        for (const [taskId, tab] of this.tabs) {
          if (tab.terminal === closed) {
            this.closeTab(tab);
            tab.pty.dispose();
            this.tabs.delete(taskId);
            this.tasksChanged.fire();
          }
        }
      }),
    );
  }

  showCommand(info: { id: string; command: string; cwd: string }): CommandView {
    const pty = this.sharedPty();
    pty.write(`${BOLD}$ ${info.command}${RESET}\n`);
    this.last.start(info.command);
    return {
      write: (chunk) => {
        pty.write(chunk);
        this.last.append(chunk);
      },
      end: (outcome) => {
        pty.write(`${pty.atLineStart ? '' : '\n'}${statusLine(outcome)}\n\n`);
        this.last.end(statusLine(outcome));
      },
    };
  }

  showBackgroundTask(info: { taskId: string; command: string; cwd: string }, onClose: () => void): CommandView {
    let tab: BackgroundTab | undefined;
    const pty = new OutputPty({
      onUserClose: () => tab && this.closeTab(tab),
      // Ctrl+C stops the task, as it would in a shell; the tab stays to show how it ended.
      onInput: (data) => {
        if (data === '\x03' && tab) this.closeTab(tab);
      },
    });
    const terminal = vscode.window.createTerminal({
      name: `OpenDev: ${shorten(info.command, 40)}`,
      pty,
      iconPath: new vscode.ThemeIcon('server-process'),
      isTransient: true,
    });
    tab = { terminal, pty, command: info.command, closed: false, running: true, onClose };
    this.tabs.set(info.taskId, tab);
    this.tasksChanged.fire();
    pty.write(`${BOLD}$ ${info.command}${RESET}\n${DIM}[background task ${info.taskId} in ${info.cwd}; close this tab or press Ctrl+C to stop it]${RESET}\n`);
    return {
      write: (chunk) => pty.write(chunk),
      end: (outcome) => {
        pty.write(`${pty.atLineStart ? '' : '\n'}${statusLine(outcome)}\n`);
        if (tab) tab.running = false;
        this.tasksChanged.fire();
      },
    };
  }

  /** The last command of the shared terminal with its output and status (`@terminal`); undefined before the first. */
  lastCommandText(): string | undefined {
    return this.last.text();
  }

  /** Background tasks that have not ended, oldest first. */
  running(): BackgroundTaskView[] {
    return [...this.tabs].filter(([, tab]) => tab.running && !tab.closed).map(([id, tab]) => ({ id, command: tab.command }));
  }

  /** Shows a background task's tab (the chat indicator's button). */
  open(taskId: string): void {
    this.tabs.get(taskId)?.terminal.show(false);
  }

  /** The plain-text transcript of the shared terminal, or of a background task's tab. */
  transcript(taskId?: string): string {
    if (taskId !== undefined) return this.tabs.get(taskId)?.pty.transcript() ?? '';
    return this.shared?.pty.transcript() ?? '';
  }

  taskIds(): string[] {
    return [...this.tabs.keys()];
  }

  /** The terminal of a background task (tests close it to check the task dies). */
  taskTerminal(taskId: string): vscode.Terminal | undefined {
    return this.tabs.get(taskId)?.terminal;
  }

  /** Shows the shared terminal (the "Open OpenDev Terminal" command). */
  reveal(preserveFocus = false): void {
    this.sharedPty();
    this.shared!.terminal.show(preserveFocus);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.tasksChanged.dispose();
    for (const tab of this.tabs.values()) {
      this.closeTab(tab);
      tab.terminal.dispose();
      tab.pty.dispose();
    }
    this.tabs.clear();
    this.shared?.terminal.dispose();
    this.shared?.pty.dispose();
    this.shared = undefined;
  }

  private sharedPty(): OutputPty {
    if (!this.shared) {
      const pty = new OutputPty();
      const terminal = vscode.window.createTerminal({ name: SHARED_TERMINAL_NAME, pty, iconPath: new vscode.ThemeIcon('hubot'), isTransient: true });
      this.shared = { terminal, pty };
      // Visible, but the focus stays where the user is typing.
      terminal.show(true);
    }
    return this.shared.pty;
  }

  private closeTab(tab: BackgroundTab): void {
    if (tab.closed) return;
    tab.closed = true;
    try {
      tab.onClose();
    } catch {
      // killing an already finished task is fine
    }
  }
}

function statusLine(o: Outcome): string {
  switch (o.status) {
    case 'completed':
      return `${GREEN}✓ exit 0${RESET}`;
    case 'failed':
      return `${RED}✗ ${o.signal ? `killed by ${o.signal}` : `exit ${o.exitCode ?? '?'}`}${RESET}`;
    case 'timeout':
      return `${YELLOW}⏱ timed out: the process group was killed${RESET}`;
    case 'killed':
      return `${YELLOW}■ stopped${o.signal ? ` (${o.signal})` : ''}${RESET}`;
  }
}

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
