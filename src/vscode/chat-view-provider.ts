import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { WEBVIEW_L10N_ELEMENT_ID, WebviewToExtensionSchema, type ExtensionToWebview, type WebviewToExtension } from '../shared/protocol';
import type { ChatController } from './chat-controller';
import { localFolders, type ChatFolder } from './chat-folder';
import { CHAT_VIEW_ID } from './chat-view-id';
import { REVIEW_COMMANDS } from './diff-approval/review-commands';
import { l10nScriptJson, webviewL10n } from './localisation';
import { openLinkTarget } from './open-link';
import type { Logger } from '../core/logger';

/**
 * Context keys the view sets for its keybindings (Escape = Stop, Alt+M = Switch Mode).
 * `focusedView` is not set while the focus is inside a webview view, hence keys of our own.
 */
export const VIEW_FOCUSED_KEY = 'opendev.chatFocused';
export const INPUT_FOCUSED_KEY = 'opendev.chatInputFocused';
export const SUGGESTING_KEY = 'opendev.chatSuggesting';

/** Hosts the chat webview in the OpenDev activity-bar container and relays the typed protocol. */
export class ChatViewProvider implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  /** The view's script has said `ready`: messages posted now are not lost. */
  private ready = false;
  /** Input edits asked for before the view was ready (Add Selection with the view closed). */
  private composeQueue: Extract<ExtensionToWebview, { type: 'compose' }>[] = [];
  /** Show History was asked for before the view was ready. */
  private historyPending = false;
  private typed = '';
  private inputFocused = false;
  private readonly focused = new vscode.EventEmitter<void>();
  /** The user turned to the chat (focused it, opened it, sent from it): the status bar follows it. */
  readonly onDidFocus = this.focused.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly chat: ChatController,
    private readonly log: Logger,
    private readonly onAction: (action: Extract<WebviewToExtension, { type: 'action' }>) => void,
    /** The chat's folder: the header's picker (shown when the workspace has several). */
    private readonly folder?: ChatFolder,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    const webview = view.webview;
    webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist'), vscode.Uri.joinPath(this.extensionUri, 'media')],
    };
    webview.html = this.html(webview);
    const subscription = this.chat.onMessage((message) => void webview.postMessage(message));
    const folders = this.folder?.onDidChange(() => this.ready && void webview.postMessage(this.foldersMessage()));
    view.onDidDispose(() => {
      subscription.dispose();
      folders?.dispose();
      this.view = undefined;
      this.ready = false;
      this.setInputState(false, false, false);
    });
    view.onDidChangeVisibility(() => {
      if (view.visible) this.focused.fire();
      if (view.visible) return;
      this.setInputState(false, false, false);
      // A hidden view's page is dropped and loaded again when shown: what is asked meanwhile (Show
      // History, an input edit) waits for its 'ready', or a slow reload would lose it.
      this.ready = false;
    });
    webview.onDidReceiveMessage((raw: unknown) => this.receive(raw));
  }

  /** Reveals the chat view (used by New Chat and the palette). */
  async reveal(): Promise<void> {
    this.focused.fire();
    if (this.view) this.view.show(true);
    else await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  }

  /**
   * Shows the chat with its input focused, after appending `text` to what is typed there. The
   * edit waits for the view to be ready when it has to be opened first.
   */
  async compose(text?: string): Promise<void> {
    this.focused.fire();
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    const message = { type: 'compose' as const, ...(text !== undefined ? { text } : {}) };
    if (this.view && this.ready) void this.view.webview.postMessage(message);
    else this.composeQueue.push(message);
  }

  /** What is typed in the chat input, as the view last reported it. */
  get draft(): string {
    return this.typed;
  }

  /** Whether the view is shown and its input has the focus, as the view last reported it. */
  get shown(): { visible: boolean; inputFocused: boolean } {
    return { visible: this.view?.visible ?? false, inputFocused: this.inputFocused };
  }

  /** Opens the history view inside the chat (the view's title-bar button, the palette). */
  async showHistory(): Promise<void> {
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    if (this.view && this.ready) void this.view.webview.postMessage({ type: 'showHistory' });
    else this.historyPending = true;
  }

  /** A message from the chat view (or one a script or test sends as the view would): validated, then handled. */
  receive(raw: unknown): void {
    const parsed = WebviewToExtensionSchema.safeParse(raw);
    if (!parsed.success) {
      this.log.warn(`Dropped an invalid message from the chat view: ${JSON.stringify(raw)?.slice(0, 200)}`);
      return;
    }
    this.handle(parsed.data);
  }

  private handle(message: WebviewToExtension): void {
    if (message.type === 'send' || (message.type === 'inputState' && message.viewFocused)) this.focused.fire();
    switch (message.type) {
      case 'ready':
        this.ready = true;
        void this.view?.webview.postMessage(this.chat.snapshot());
        if (this.folder) void this.view?.webview.postMessage(this.foldersMessage());
        for (const queued of this.composeQueue.splice(0)) void this.view?.webview.postMessage(queued);
        if (this.historyPending) void this.view?.webview.postMessage({ type: 'showHistory' });
        this.historyPending = false;
        return;
      case 'draft':
        this.typed = message.text;
        return;
      case 'send':
        void this.chat.send(message.text, message.images);
        return;
      case 'stop':
        this.chat.stop();
        return;
      case 'newChat':
        this.folder?.release(); // the next conversation follows the active editor's folder again
        this.chat.newChat();
        return;
      case 'pickFolder':
        this.pickFolder(message.id);
        return;
      case 'action':
        this.onAction(message);
        return;
      case 'answerApproval':
      case 'answerQuestions':
      case 'answerPlan': {
        const outcome = this.chat.answer(message);
        if (!outcome.ok) this.log.warn(`Dropped an answer from the chat view: ${outcome.reason}`);
        return;
      }
      case 'decideHunk': {
        const outcome = this.chat.decideHunk(message.id, message.index, message.verdict ?? undefined);
        if (!outcome.ok) this.log.warn(`Dropped a change decided in the chat view: ${outcome.reason}`);
        return;
      }
      case 'retryNow':
        if (!this.chat.retryNow(message.id)) this.log.info('Retry now: the provider call was no longer waiting.');
        return;
      case 'retryTurn':
        void this.chat.retryTurn(message.id);
        return;
      case 'complete':
        this.chat.sendCompletions(message.text);
        return;
      case 'completeMention':
        void this.chat.sendMentionCompletions(message.query);
        return;
      case 'openTask':
        this.chat.openTask(message.id);
        return;
      case 'showDiff':
        void vscode.commands.executeCommand(REVIEW_COMMANDS.showDiff, message.id);
        return;
      case 'copyText':
        void Promise.resolve(vscode.env.clipboard.writeText(message.text)).catch((err: unknown) => this.log.warn(`Could not copy to the clipboard: ${String(err)}`));
        return;
      case 'switchMode':
        this.chat.toggleMode();
        return;
      case 'inputState':
        this.setInputState(message.viewFocused, message.inputFocused, message.suggesting);
        return;
      case 'listSessions':
        void this.chat.listSessions();
        return;
      case 'resumeSession':
        void this.chat.resumeSession(message.id);
        return;
      case 'deleteSession':
        void this.chat.deleteSession(message.id);
        return;
      case 'restoreTo':
        void this.chat.restoreTo(message.step);
        return;
      case 'openLink':
        void this.openLink(message.target);
        return;
    }
  }

  /** The header's picker chose a folder: the chat works there (chat-folder-follow.ts starts a new chat when one is under way). */
  private pickFolder(id: string): void {
    const folder = this.folder?.byId(id);
    if (!folder) {
      this.log.warn(`The chat view picked a folder that is not open: ${id.slice(0, 200)}`);
      return;
    }
    this.folder?.choose(folder);
  }

  private foldersMessage(): ExtensionToWebview {
    return { type: 'folders', ...this.folder!.choices() };
  }

  private async openLink(target: Extract<WebviewToExtension, { type: 'openLink' }>['target']): Promise<void> {
    const folders = localFolders().map((f) => f.uri.fsPath);
    try {
      const problem = await openLinkTarget(target, folders);
      if (!problem) return;
      this.log.warn(`Did not open a link from the chat: ${problem}`);
      void vscode.window.showWarningMessage(vscode.l10n.t('OpenDev: {0}', problem));
    } catch (err) {
      this.log.warn(`Could not open a link from the chat: ${String(err)}`);
    }
  }

  private setInputState(viewFocused: boolean, inputFocused: boolean, suggesting: boolean): void {
    this.inputFocused = inputFocused;
    void vscode.commands.executeCommand('setContext', VIEW_FOCUSED_KEY, viewFocused);
    void vscode.commands.executeCommand('setContext', INPUT_FOCUSED_KEY, inputFocused);
    void vscode.commands.executeCommand('setContext', SUGGESTING_KEY, suggesting);
  }

  private html(webview: vscode.Webview): string {
    // Every <script> carries the nonce, the l10n data block too: it never runs (type JSON), but the
    // page then has no script element the policy would not allow, whatever a browser makes of it.
    const nonce = randomBytes(16).toString('base64');
    const script = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview.js'));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', 'chat.css'));
    const csp = [
      "default-src 'none'",
      `img-src ${webview.cspSource} data:`,
      `font-src ${webview.cspSource}`,
      `style-src ${webview.cspSource} 'nonce-${nonce}'`,
      `script-src 'nonce-${nonce}'`,
    ].join('; ');
    const l10n = webviewL10n();
    return `<!DOCTYPE html>
<html lang="${escapeAttribute(l10n.language)}">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${csp}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" href="${style}" nonce="${nonce}">
  <title>OpenDev</title>
</head>
<body>
  <script type="application/json" id="${WEBVIEW_L10N_ELEMENT_ID}" nonce="${nonce}">${l10nScriptJson(l10n)}</script>
  <main id="app" data-style-nonce="${nonce}"></main>
  <script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
  }
}

/** A language tag as VS Code gives it ("zh-cn"), safe inside an attribute whatever it holds. */
function escapeAttribute(value: string): string {
  return value.replace(/[^A-Za-z0-9-]/g, '');
}
