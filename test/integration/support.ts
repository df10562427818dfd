import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';
import { TEST_API_COMMAND, type OpenDevApi } from '../../src/vscode/opendev-api';
import { FakeProvider } from '../fixtures/fake-provider';

/** The suites' shared steps inside VS Code: activate the extension, set and clear `opendev.*`, wait. */
export const config = () => vscode.workspace.getConfiguration('opendev');

/** Activates the extension and returns its test API (a command registered only in VS Code's test mode). */
export async function activateOpenDev(): Promise<OpenDevApi> {
  const ext = vscode.extensions.getExtension('opendev.opendev');
  assert.ok(ext, 'the extension is installed');
  await ext.activate();
  const api = await vscode.commands.executeCommand<OpenDevApi | undefined>(TEST_API_COMMAND);
  assert.ok(api, `${TEST_API_COMMAND} answers in test mode`);
  return api;
}

/** Writes `opendev.<key>` user settings, in order (each change reaches the extension as an event). */
/**
 * Sets the user's settings and returns once the extension host's configuration shows them: the
 * change event (the extension's handler included) is dispatched in the same step that updates it.
 */
export async function useSettings(values: Record<string, unknown>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    await config().update(key, value, vscode.ConfigurationTarget.Global);
    await until(() => isDeepStrictEqual(config().inspect(key)?.globalValue, value), `the setting opendev.${key} to reach the extension`);
  }
}

export async function clearSettings(keys: readonly string[]): Promise<void> {
  await useSettings(Object.fromEntries(keys.map((key) => [key, undefined])));
}

/** Makes a change to the project's configuration files and returns once the extension has taken it in. */
export async function changeProjectConfiguration(api: OpenDevApi, change: () => void): Promise<void> {
  const seen = api.projectConfigurationSeen();
  change();
  await until(() => api.projectConfigurationSeen() > seen, 'the extension to see the project configuration change');
}

/** Waits for something the extension does in reaction to an editor event (a setting change…). */
export async function until(check: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** What a suite set up by fakeProviderSuite works with (read inside its tests and hooks). */
export interface FakeProviderSuite {
  readonly fake: FakeProvider;
  readonly api: OpenDevApi;
  /** The workspace folder VS Code opened (a fresh copy of test/fixtures/workspace). */
  readonly folder: string;
}

/**
 * The setup most suites share, as mocha hooks of the describe() that calls it (they run before
 * the suite's own): the fake provider started, the extension activated, `opendev.*` pointed at the
 * fake (OpenAI, thinking off, then `settings`) with a key in Secret Storage. Before each test the
 * fake forgets its requests and the chat starts anew (`eachTest` writes the settings again, for
 * suites whose tests change them); after the suite the settings are cleared and the fake stops.
 */
export function fakeProviderSuite(settings: Record<string, unknown> = {}, options: { eachTest?: boolean } = {}): FakeProviderSuite {
  const fake = new FakeProvider();
  let api: OpenDevApi | undefined;
  const all = () => ({ provider: 'openai', baseUrl: fake.openaiBaseUrl, thinkingLevel: 'off', ...settings });
  before(async () => {
    await fake.start();
    api = await activateOpenDev();
    await useSettings(all());
    await vscode.commands.executeCommand('opendev.setApiKey', 'openai', 'sk-integration');
  });
  after(async () => {
    api?.newChat();
    await clearSettings(Object.keys(all()));
    await fake.stop();
  });
  beforeEach(async () => {
    fake.reset();
    api?.newChat();
    if (options.eachTest) await useSettings(all());
  });
  return {
    fake,
    get api() {
      assert.ok(api, 'the extension is active (the suite has started)');
      return api;
    },
    get folder() {
      const folder = vscode.workspace.workspaceFolders?.[0];
      assert.ok(folder, 'the test run opens a workspace folder');
      return folder.uri.fsPath;
    },
  };
}

/** Running and not a zombie (the test machine's PID 1 may never reap orphans). */
export function processRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** A question OpenDev put to the user through vscode.window.showWarningMessage (a notification, or a modal dialog). */
export interface AskedWarning {
  message: string;
  modal: boolean;
  detail?: string;
  items: string[];
}

/**
 * Answers OpenDev's warning notifications and dialogs as the user would, until `restore()`: the one
 * stand-in the suites use for VS Code's own dialogs (an extension-host test cannot click them).
 * `answer` returns the button pressed (undefined: dismissed), or a promise of it for an answer the
 * test gives later. Every question is recorded in `asked`.
 */
export function answerWarnings(answer: (asked: AskedWarning) => string | undefined | Promise<string | undefined>): { asked: AskedWarning[]; restore(): void } {
  const window = vscode.window as { showWarningMessage: (...args: unknown[]) => Thenable<unknown> };
  const real = window.showWarningMessage;
  const asked: AskedWarning[] = [];
  window.showWarningMessage = async (message: unknown, ...rest: unknown[]) => {
    const options = typeof rest[0] === 'object' && rest[0] !== null ? (rest.shift() as vscode.MessageOptions) : {};
    const question: AskedWarning = { message: String(message), modal: options.modal === true, ...(options.detail ? { detail: options.detail } : {}), items: rest.map(String) };
    asked.push(question);
    return answer(question);
  };
  return { asked, restore: () => void (window.showWarningMessage = real) };
}

/**
 * Trusts the workspace folder's configuration as it is now, as the user would: "OpenDev: Trust Folder
 * Configuration…" from the palette, Trust in its dialog (and "Don't send" for an endpoint it chose).
 * For suites whose project hooks or settings must apply; `untrustFolderConfiguration` in their `after`.
 */
export async function trustFolderConfiguration(): Promise<AskedWarning[]> {
  const dialogs = answerWarnings((q) => (q.items.includes('Trust') && q.modal ? 'Trust' : q.items.includes("Don't send") ? "Don't send" : undefined));
  try {
    await vscode.commands.executeCommand('opendev.trustFolder');
  } finally {
    dialogs.restore();
  }
  return dialogs.asked;
}

export async function untrustFolderConfiguration(): Promise<void> {
  await vscode.commands.executeCommand('opendev.untrustFolder');
}
