// A temporary workspace whose `.opendev/settings.json` holds real shell-script hooks, and the main
// agent built on it by the real factory against the fake provider (OpenAI wire).
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent } from '../../src/core/agent/agent';
import { createMainAgent } from '../../src/core/agent/create-agent';
import type { MainAgentOptions } from '../../src/core/agent/main-agent-options';
import type { UICallback } from '../../src/core/ui';
import type { FakeProvider, RecordedRequest } from '../fixtures/fake-provider';

export interface HookWorkspace {
  workspace: string;
  home: string;
  /** Writes an executable script `.hooks/<name>.sh` (bash) and returns the command that runs it. */
  script(name: string, body: string): string;
  /** Writes `.opendev/settings.json` with these `hooks`. */
  settings(hooks: Record<string, unknown>): void;
  /** Writes the user's own `<home>/settings.json` with these `hooks` (they run in any folder, trusted or not). */
  userSettings(hooks: Record<string, unknown>): void;
  /** The stdin JSON of every hook run logged with `logInput()`, oldest first. */
  inputs(): Array<Record<string, any>>;
}

/** Shell lines that save the hook's stdin as one JSON file per run (concurrent runs never interleave). */
export const logInput = 'd="$OPENDEV_PROJECT_DIR/.hook-inputs"; mkdir -p "$d"; cat > "$d/$(date +%s%N)-$$.json"';

/** Shell lines that succeed the first time only: they create `$OPENDEV_PROJECT_DIR/.<marker>` and print nothing. */
export const firstTimeOnly = (marker: string) => `m="$OPENDEV_PROJECT_DIR/.${marker}"; [ -e "$m" ] && exit 0; touch "$m"`;

export function hookWorkspace(): HookWorkspace {
  const workspace = mkdtempSync(join(tmpdir(), 'opendev-hookws-'));
  const home = mkdtempSync(join(tmpdir(), 'opendev-hookhome-'));
  mkdirSync(join(workspace, '.opendev'), { recursive: true });
  mkdirSync(join(workspace, '.hooks'), { recursive: true });
  return {
    workspace,
    home,
    script(name, body) {
      const file = join(workspace, '.hooks', `${name}.sh`);
      writeFileSync(file, `#!/usr/bin/env bash\n${body}\n`);
      chmodSync(file, 0o755);
      return `"$OPENDEV_PROJECT_DIR/.hooks/${name}.sh"`;
    },
    settings(hooks) {
      writeFileSync(join(workspace, '.opendev', 'settings.json'), JSON.stringify({ hooks }, null, 2));
    },
    userSettings(hooks) {
      writeFileSync(join(home, 'settings.json'), JSON.stringify({ hooks }, null, 2));
    },
    inputs() {
      const dir = join(workspace, '.hook-inputs');
      if (!existsSync(dir)) return [];
      return readdirSync(dir)
        .sort()
        .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, any>);
    },
  };
}

/** One command hook group for `event` (optionally with a matcher and a timeout in seconds). */
export function hookGroup(command: string, extra: { matcher?: string; timeout?: number; async?: boolean } = {}): unknown[] {
  const { matcher, ...handler } = extra;
  return [{ ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: 'command', command, ...handler }] }];
}

export function agentOn(ws: HookWorkspace, fake: FakeProvider, options: Partial<MainAgentOptions> = {}): Promise<Agent> {
  return createMainAgent({
    roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'k', baseUrl: fake.openaiBaseUrl } },
    workspaceRoot: ws.workspace,
    home: ws.home,
    approvalLevel: 'auto',
    // The test wrote the folder's hooks itself: it trusts them (the untrusted case has tests of its own).
    projectTrusted: true,
    ...options,
  });
}

/** A front end that records notices (and answers approvals with allow when asked to). */
export function recordingUI(extra: Partial<UICallback> = {}): UICallback & { notices: Array<{ text: string; level: string }> } {
  const notices: Array<{ text: string; level: string }> = [];
  return { onTextDelta() {}, onToolStart() {}, onToolEnd() {}, onNotice: (text, level) => void notices.push({ text, level }), ...extra, notices };
}

/** Everything the model was sent in one request, as text (to look for a phrase anywhere in it). */
export function requestText(req: RecordedRequest): string {
  return JSON.stringify(req.body.messages);
}

/** The user-role messages of a request (OpenAI wire), as strings. */
export function userMessages(req: RecordedRequest): string[] {
  return (req.body.messages as Array<{ role: string; content: unknown }>).filter((m) => m.role === 'user').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
}

/** The system prompt of a request: which agent is calling (main, Code-Explorer…). */
export function systemOf(req: RecordedRequest): string {
  return (req.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'system')?.content ?? '';
}
