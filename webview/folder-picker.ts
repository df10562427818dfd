import * as l10n from '@vscode/l10n';
import type { ExtensionToWebview, WebviewToExtension } from '../src/shared/protocol';

type FoldersMessage = Extract<ExtensionToWebview, { type: 'folders' }>;

/**
 * The header's folder picker: which workspace folder the chat works in. Shown only when the
 * workspace has more than one; choosing another asks the extension, which starts a new chat
 * there (and says so in it) and sends the folders back; the picker shows what it was told.
 */
export class FolderPicker {
  private readonly select: HTMLSelectElement;

  constructor(
    private readonly container: HTMLElement,
    private readonly post: (message: WebviewToExtension) => void,
  ) {
    this.select = document.createElement('select');
    this.select.id = 'folder-picker';
    this.select.className = 'folder-picker';
    this.select.setAttribute('aria-label', l10n.t('Workspace folder OpenDev works in'));
    this.select.title = l10n.t('The workspace folder this chat works in: choosing another starts a new chat there');
    this.select.addEventListener('change', () => this.post({ type: 'pickFolder', id: this.select.value }));
    this.container.append(this.select);
    this.container.hidden = true;
  }

  show(message: FoldersMessage): void {
    this.select.replaceChildren(
      ...message.folders.map((f) => {
        const option = document.createElement('option');
        option.value = f.id;
        option.textContent = f.name;
        option.title = f.path;
        option.selected = f.id === message.current;
        return option;
      }),
    );
    if (message.current) this.select.value = message.current;
    this.container.hidden = message.folders.length < 2;
  }
}
