import type { NotebookPort } from './notebook-port';
import type { SymbolPort } from './symbol-port';
import type { Logger } from './logger';
import type { EditorFilesPort } from './editor-files-port';
import type { CommandRunnerPort } from './command-runner-port';

/**
 * What the core needs from its host (VS Code or the CLI). Every port is optional: a missing port
 * means the feature degrades (the CLI has no terminal view; no ripgrep falls back to a slow search).
 */
export interface HostPorts {
  /** Absolute path of ripgrep: VS Code's bundled rg in the extension, `rg` on PATH in the CLI. */
  ripgrepPath?: string;
  /** Shows the commands the agent runs (the VS Code "OpenDev" terminal). */
  terminal?: CommandTerminalPort;
  /** The editor's language servers: without it the symbol tools are not offered (the CLI). */
  symbols?: SymbolPort;
  /** The editor's notebook API: without it notebook_edit is not offered (the CLI). */
  notebooks?: NotebookPort;
  /**
   * Opens an http(s) or file: URL outside the agent, in the user's browser (VS Code's
   * `env.openExternal`, the CLI's system opener); false when nothing could open it.
   */
  openExternal?(url: string): Promise<boolean>;
  /** The editor's text files (an ACP client's buffers): read_file, edit_file and write_file read and write through it. */
  files?: EditorFilesPort;
  /** Runs foreground commands outside the sandbox in the host's terminal (an ACP client's), where the user watches them. */
  commandRunner?: CommandRunnerPort;
  /** The host's log (VS Code's "OpenDev" channel, the CLI's --debug-file): provider calls, MCP, hooks, undo, sandbox. */
  logger?: Logger;
}

/** One command's live view: its output as it arrives, then how it ended. */
export interface CommandView {
  write(chunk: string): void;
  end(outcome: { exitCode: number | null; signal?: string; status: 'completed' | 'failed' | 'killed' | 'timeout' }): void;
}

export interface CommandTerminalPort {
  /** A foreground command, shown in the shared "OpenDev" terminal: the command line, output, exit status. */
  showCommand(info: { id: string; command: string; cwd: string }): CommandView;
  /** A background task gets its own terminal tab; closing that tab calls `onClose` (which kills the task). */
  showBackgroundTask(info: { taskId: string; command: string; cwd: string }, onClose: () => void): CommandView;
}
