import type * as vscode from 'vscode';

/**
 * The part of the `vscode` namespace the Language Model provider uses, passed in rather than imported
 * so the conversions run in unit tests with stand-ins (extension code passes `vscode` itself).
 */
export interface LmApi {
  lm: { selectChatModels(selector?: vscode.LanguageModelChatSelector): Thenable<vscode.LanguageModelChat[]> };
  LanguageModelChatMessage: typeof vscode.LanguageModelChatMessage;
  LanguageModelTextPart: typeof vscode.LanguageModelTextPart;
  LanguageModelToolCallPart: typeof vscode.LanguageModelToolCallPart;
  LanguageModelToolResultPart: typeof vscode.LanguageModelToolResultPart;
  LanguageModelError: typeof vscode.LanguageModelError;
  CancellationTokenSource: typeof vscode.CancellationTokenSource;
  LanguageModelChatToolMode: typeof vscode.LanguageModelChatToolMode;
}
