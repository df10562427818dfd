// The one "OpenDev" output channel, as a LogOutputChannel: VS Code keeps the user's log level for it
// (Developer: Set Log Level…, or --log), timestamps each line and writes it to the window's log
// folder, so "OpenDev: Show Logs" and a bug report show the same lines. The core writes to it
// through its Logger port; secrets are masked before a line reaches the channel.
import * as vscode from 'vscode';
import { lineLogger } from '../../core/log-line';
import type { Logger, LogLevel } from '../../core/logger';

export const LOG_CHANNEL_NAME = 'OpenDev';
export const SHOW_LOGS_COMMAND = 'opendev.showLogs';

export interface OpenDevLog {
  channel: vscode.LogOutputChannel;
  /** The core's view of the channel: levels as the user set them, secrets masked. */
  logger: Logger;
}

/** The channel's level as the core's; the channel itself still filters what it is given. */
function levelOf(level: vscode.LogLevel): LogLevel | 'off' {
  switch (level) {
    case vscode.LogLevel.Off:
      return 'off';
    case vscode.LogLevel.Trace:
      return 'trace';
    case vscode.LogLevel.Debug:
      return 'debug';
    case vscode.LogLevel.Info:
      return 'info';
    case vscode.LogLevel.Warning:
      return 'warn';
    default:
      return 'error';
  }
}

export function createOpenDevLog(context: vscode.ExtensionContext): OpenDevLog {
  const channel = vscode.window.createOutputChannel(LOG_CHANNEL_NAME, { log: true });
  const logger = lineLogger((level, line) => channel[level](line), { level: () => levelOf(channel.logLevel) });
  context.subscriptions.push(channel, vscode.commands.registerCommand(SHOW_LOGS_COMMAND, () => channel.show(true)));
  return { channel, logger };
}
