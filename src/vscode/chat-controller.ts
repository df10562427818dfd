import type { Agent } from '../core/agent/agent';
import type { TurnResult } from '../core/agent/turn-result';
import type { ToolResult } from '../core/tools/tool';
import type { UICallback } from '../core/ui';
import type { ChatEntry, ExtensionToWebview } from '../shared/protocol';

/** Builds the agent for the current settings, or says why it cannot (no key, no folder…). */
export type AgentSource = () => Promise<{ agent: Agent } | { problem: ChatEntry }>;

/**
 * One chat: the transcript the webview shows, the agent behind it, and the running turn.
 * It is the single source of truth; the webview only renders what it is sent.
 */
export class ChatController {
  private entries: ChatEntry[] = [];
  private agent: Agent | undefined;
  private running: AbortController | undefined;
  private nextId = 0;
  private readonly listeners = new Set<(message: ExtensionToWebview) => void>();

  constructor(private readonly agentSource: AgentSource) {}

  get busy(): boolean {
    return this.running !== undefined;
  }

  transcript(): readonly ChatEntry[] {
    return this.entries;
  }

  onMessage(listener: (message: ExtensionToWebview) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  snapshot(): ExtensionToWebview {
    return { type: 'snapshot', entries: [...this.entries], busy: this.busy };
  }

  /** Runs one user turn; resolves when the turn has ended, whatever the outcome. */
  async send(text: string): Promise<TurnResult | undefined> {
    if (this.running) {
      this.upsert({ kind: 'notice', id: this.id(), text: 'OpenDev is still working. Stop it first, or wait.' });
      return undefined;
    }
    this.upsert({ kind: 'user', id: this.id(), text });
    const controller = new AbortController();
    this.setRunning(controller);
    try {
      if (!this.agent) {
        const built = await this.agentSource();
        if ('problem' in built) {
          this.upsert({ ...built.problem, id: this.id() });
          return undefined;
        }
        this.agent = built.agent;
      }
      const agent = this.agent;
      const result = await agent.runTurn(text, this.uiFor(), controller.signal);
      this.reportOutcome(result);
      return result;
    } catch (err) {
      this.upsert({ kind: 'error', id: this.id(), text: `OpenDev hit an internal error: ${(err as Error).message}` });
      return undefined;
    } finally {
      this.setRunning(undefined);
    }
  }

  stop(): void {
    this.running?.abort();
  }

  /** Forgets the conversation; the next message starts a fresh agent with the current settings. */
  newChat(): void {
    this.stop();
    this.agent = undefined;
    this.entries = [];
    this.emit(this.snapshot());
  }

  /** Settings or keys changed: the next turn builds a new agent (the transcript stays visible). */
  invalidateAgent(): void {
    if (!this.running) this.agent = undefined;
  }

  private uiFor(): UICallback {
    let textId: string | undefined;
    return {
      onTextDelta: (delta) => {
        if (!textId) {
          textId = this.id();
          this.upsert({ kind: 'assistant', id: textId, text: '' });
        }
        const entry = this.entries.find((e) => e.id === textId);
        if (entry?.kind === 'assistant') entry.text += delta;
        this.emit({ type: 'textDelta', id: textId, delta });
      },
      onToolStart: (call) => {
        textId = undefined; // text after a tool call starts a new message below the card
        this.upsert({ kind: 'tool', id: `tool-${call.id}`, name: call.name, args: call.args, status: 'running' });
      },
      onToolEnd: (call, result: ToolResult) => {
        const entry = this.entries.find((e) => e.id === `tool-${call.id}`);
        if (entry?.kind !== 'tool') return;
        this.upsert({ ...entry, status: result.ok ? 'ok' : 'error', summary: result.summary });
      },
    };
  }

  private reportOutcome(result: TurnResult): void {
    if (result.status === 'failed') {
      const action = result.error.kind === 'auth' ? 'setApiKey' : result.error.kind === 'unreachable' ? 'openSettings' : undefined;
      this.upsert({ kind: 'error', id: this.id(), text: result.error.message, ...(action ? { action } : {}) });
    } else if (result.status === 'stopped') {
      this.upsert({ kind: 'notice', id: this.id(), text: 'Stopped.' });
    } else if (result.status === 'iteration_limit') {
      this.upsert({ kind: 'notice', id: this.id(), text: 'OpenDev reached its step limit for this message. Send "continue" to go on.' });
    }
  }

  private setRunning(controller: AbortController | undefined): void {
    this.running = controller;
    this.emit({ type: 'busy', busy: controller !== undefined });
  }

  private upsert(entry: ChatEntry): void {
    const index = this.entries.findIndex((e) => e.id === entry.id);
    if (index >= 0) this.entries[index] = entry;
    else this.entries.push(entry);
    this.emit({ type: 'upsert', entry });
  }

  private emit(message: ExtensionToWebview): void {
    for (const listener of this.listeners) listener(message);
  }

  private id(): string {
    return `e${++this.nextId}`;
  }
}
