import * as vscode from 'vscode';
import { configurePackageDownloads } from '../core/packages/package-loader';
import type { Logger } from '../core/logger';

/**
 * The browser tools' and read_pdf's libraries are not in the .vsix (scripts/on-demand-packages.mjs):
 * the first use of either downloads its library into the extension's global storage, with a
 * notification while it runs and a line in the log; a copy in the extension's own folder (a
 * development checkout) is used as is.
 */
export function registerPackageDownloads(context: vscode.ExtensionContext, log: Logger): void {
  configurePackageDownloads({
    storageDir: context.globalStorageUri.fsPath,
    ownRoot: context.extensionPath,
    onDownload: ({ name, version, text }, done) => {
      log.info(text);
      done.then(
        () => log.info(`${name} ${version} downloaded and verified`),
        (err: unknown) => log.warn((err as Error).message),
      );
      void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('OpenDev: {0}', text) }, () => done.catch(() => undefined));
    },
  });
}
