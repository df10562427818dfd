import * as vscode from 'vscode';
import { relativeTime } from '../core/commands/format';
import type { ChatController } from './chat-controller';

/**
 * "OpenDev: Show Sessions": this project's sessions, newest first (the CLI's and the editor's),
 * and the chosen one resumed in the chat. With an id argument it resumes that one without asking
 * (scripts, tests).
 */
export async function showSessionHistory(chat: ChatController, reveal: () => Promise<void>, id?: unknown): Promise<void> {
  const sessions = chat.sessions;
  if (!sessions) {
    void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: open a folder first; sessions belong to a project.'));
    return;
  }
  let chosen = typeof id === 'string' ? id : undefined;
  if (!chosen) {
    const list = await sessions.list();
    if (list.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: no saved sessions for this project yet.'));
      return;
    }
    const picked = await vscode.window.showQuickPick(
      list.map((s) => ({
        label: s.title || vscode.l10n.t('(untitled)'),
        description: [relativeTime(s.updatedAt), s.messageCount === 1 ? vscode.l10n.t('1 message') : vscode.l10n.t('{0} messages', s.messageCount), ...(s.id === sessions.currentId ? [vscode.l10n.t('current')] : [])].join(' · '),
        detail: s.id,
        id: s.id,
      })),
      { title: vscode.l10n.t('OpenDev: resume a session'), placeHolder: vscode.l10n.t('Sessions of this project, newest first'), matchOnDetail: true },
    );
    chosen = picked?.id;
  }
  if (!chosen) return;
  await reveal();
  await chat.resumeSession(chosen);
}
