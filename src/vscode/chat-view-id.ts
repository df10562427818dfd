/** The chat's webview view (package.json `contributes.views`). */
export const CHAT_VIEW_ID = 'opendev.chatView';
