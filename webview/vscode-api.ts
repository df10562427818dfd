import type { ChatEntry, WebviewToExtension } from '../src/shared/protocol';

interface VsCodeApi {
  postMessage(message: WebviewToExtension): void;
  getState(): PersistedState | undefined;
  setState(state: PersistedState): void;
}

/** What survives the view being hidden or reloaded before the extension's snapshot arrives. */
export interface PersistedState {
  entries: ChatEntry[];
  draft: string;
}

declare function acquireVsCodeApi(): VsCodeApi;

export const vscode = acquireVsCodeApi();
