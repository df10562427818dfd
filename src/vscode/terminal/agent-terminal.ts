import { PassThrough, Writable } from 'node:stream';
import * as vscode from 'vscode';
import type { Agent } from '../../core/agent/agent';
import { AgentSession } from '../../core/session/agent-session';
import type { ThinkingLevel } from '../../core/config/thinking-level';
import type { ModelInfo, SlashCommandRegistry } from '../../core/commands/slash-commands';
import type { CommandTerminalPort } from '../../core/host';
import { createStreamTerminalPort } from '../../core/process/stream-terminal';
import type { SessionStore } from '../../core/session/session-store';
import type { SessionTitles } from '../../core/config/session-titles-setting';
import type { AgentMode, ContextInfo } from '../../core/ui';
import { style } from '../../terminal-ui/ansi';
import { startReadlineRepl, type ReadlineRepl } from '../../terminal-ui/readline-repl';
import type { ChatEntry, ContextView } from '../../shared/protocol';
import type { AgentSource } from '../agent-source';
import { contextAfter, costView } from '../chat-live-state';
import { sandboxView } from '../status/sandbox-view';
import type { FrontEndStatus } from '../status/status-text';
import { OutputPty } from './output-pty';

export interface AgentTerminalOptions {
  name: string;
  workingDir: string;
  /** Builds this terminal's own agent (under `sessionId` when given); `port` shows the commands it runs (here, inline). */
  /** Builds the tab's agent, working in `workingDir` (its folder, fixed when the tab opened). */
  buildAgent: (port: CommandTerminalPort, options: { sessionId?: string }, workingDir: string) => ReturnType<AgentSource>;
  /** The chat's registry: the same slash commands in both front ends. */
  commands: SlashCommandRegistry;
  /** Where sessions are saved (the chat's store); without it nothing is saved. */
  store?: SessionStore;
  /** Where the session's title comes from (`opendev.sessionTitles`), read when the tab starts its session. */
  titles: () => SessionTitles;
  /** Background tasks get tabs of their own, as the chat's do. */
  backgroundTasks: CommandTerminalPort;
  /** Told when what the status bar shows of this tab changes (mode, busy, context, cost). */
  onStatus?: () => void;
  /** Told when the user types in this tab (it is the front end in use). */
  onTyping?: () => void;
  /** A saved session this tab continues (the tab was open when the window reloaded). */
  resumeSessionId?: string;
}

type Phase = 'building' | 'running' | 'closed';
type Built = { agent: Agent; models?: readonly ModelInfo[] };

/**
 * One "OpenDev Agent" terminal tab: a pseudoterminal running the shared terminal front end (the
 * CLI's REPL, readline doing the line editing) with an agent and a session of its own. The
 * session ending (/exit, Ctrl+C twice, Ctrl+D) closes the tab; closing the tab disposes the agent
 * (SessionEnd hooks, background tasks killed) after a last save.
 */
export class AgentTerminal implements vscode.Disposable {
  readonly terminal: vscode.Terminal;
  private readonly pty: OutputPty;
  /** Keystrokes, as readline reads them. */
  private readonly keys = new PassThrough();
  private readonly output: Writable & { columns: number; rows: number };
  private phase: Phase = 'building';
  /** This tab's conversation: its agent, rebuilt, renewed and saved as in the chat. */
  private readonly session: AgentSession<ChatEntry>;
  private busy = false;
  private context: ContextView | undefined;
  /** Builds this tab's agents; commands they run show inline. */
  private readonly port: CommandTerminalPort;
  private repl: ReadlineRepl | undefined;
  private ending: Promise<void> | undefined;
  /** The saved session still to be continued (until an agent could be built for it). */
  private resuming: string | undefined;

  constructor(private readonly options: AgentTerminalOptions) {
    this.pty = new OutputPty({
      onInput: (data) => this.onInput(data),
      onUserClose: () => void this.dispose(),
      onResize: (d) => this.resize(d),
    });
    this.output = Object.assign(
      new Writable({
        decodeStrings: false,
        write: (chunk: string | Buffer, _encoding, done) => {
          this.write(String(chunk));
          done();
        },
      }),
      { columns: 80, rows: 24 },
    );
    this.terminal = vscode.window.createTerminal({ name: options.name, pty: this.pty, iconPath: new vscode.ThemeIcon('hubot'), isTransient: true });
    this.port = this.commandPort();
    const { store } = options;
    this.session = new AgentSession({
      build: (build) => this.tryBuild(build),
      ...(store ? { saving: { store, workingDir: options.workingDir, titles: options.titles, onProblem: (text) => this.write(`${style(`! ${text}`, 'yellow', true)}\n`) } } : {}),
      onAgent: (agent) => this.followed(agent),
    });
    this.resuming = options.resumeSessionId;
  }

  private get agent(): Agent | undefined {
    return this.session.agent;
  }

  /**
   * Builds the agent and runs the session until it ends. When the agent cannot be built (no key,
   * bad settings) the tab says why and runs anyway: the commands that need no model work, and each
   * task tries the build again (so a key set meanwhile is used, without reopening the tab).
   */
  async run(): Promise<void> {
    const agent = await this.firstAgent();
    if (this.closed) return;
    this.phase = 'running';
    const recorder = this.session.recorder;
    this.repl = startReadlineRepl({
      input: this.keys,
      output: this.output,
      terminal: true,
      ...(agent ? { agent: agent.agent } : {}),
      commands: this.options.commands,
      ...(recorder ? { recorder } : {}),
      ...(agent?.models ? { models: agent.models } : {}),
      front: 'vscode',
      greeting: this.greeting(agent?.agent, agent?.models),
      nextAgent: (reason, current) => this.nextAgent(reason, current),
      onStatus: (change) => this.statusChanged(change),
    });
    await this.repl.done;
    // The session ended from inside (/exit, Ctrl+C twice, Ctrl+D): the tab goes with it.
    if (this.closed) return;
    this.pty.exit();
    await this.dispose();
  }

  /** A getter, so a check after an await is not narrowed away by the compiler. */
  private get closed(): boolean {
    return this.phase === 'closed';
  }

  /** The plain text written so far (colours and cursor moves removed). */
  screen(): string {
    return this.pty.transcript();
  }

  /** Keystrokes, as if typed into the tab. */
  type(data: string): void {
    this.pty.handleInput(data);
  }

  get sessionId(): string | undefined {
    return this.session.id;
  }

  /**
   * The session a reload should continue: the one being written, or (its first write still queued)
   * the one the agent's messages are going to; undefined before the first message.
   */
  get resumableSessionId(): string | undefined {
    const agent = this.agent;
    return this.session.id ?? (agent && agent.messages.length > 0 ? agent.sessionId : undefined);
  }

  get mode(): AgentMode | undefined {
    return this.agent?.mode;
  }

  /** What the status bar shows while this tab is the active front end. */
  status(): FrontEndStatus {
    const cost = this.agent?.cost();
    return {
      mode: this.agent?.mode ?? 'normal',
      busy: this.busy,
      workingDir: this.options.workingDir,
      ...(this.context ? { context: this.context } : {}),
      ...(cost ? { cost: costView(cost) } : {}),
      ...(this.agent?.sandbox ? { sandbox: sandboxView(this.agent.sandbox) } : {}),
    };
  }

  /**
   * Settings or keys changed: the next line typed runs on an agent built with them, the
   * conversation carried over in the same session (a turn that runs now finishes on the old one).
   */
  invalidate(stillHolds?: (agent: Agent) => boolean): void {
    this.session.invalidate(stillHolds);
  }

  /** The `opendev.thinkingLevel` setting changed: it applies at once, as in the chat. */
  setThinkingLevel(level: ThinkingLevel): void {
    this.session.setThinkingLevel(level);
  }

  /** Stops the session and disposes the agent after a last save; resolves when that is done. */
  dispose(): Promise<void> {
    if (this.ending) return this.ending;
    this.phase = 'closed';
    this.repl?.close();
    this.keys.end();
    this.ending = (async () => {
      // A running turn stops, background tasks go, SessionEnd hooks run, then a last save.
      await this.session.dispose();
      this.pty.dispose();
    })();
    return this.ending;
  }

  /** Commands the agent runs show inline, as in the CLI; background tasks get their own tabs. */
  private commandPort(): CommandTerminalPort {
    const inline = createStreamTerminalPort((text) => this.write(text));
    return {
      showCommand: (info) => inline.showCommand(info),
      showBackgroundTask: (info, onClose) => {
        const here = inline.showBackgroundTask(info, onClose);
        const tab = this.options.backgroundTasks.showBackgroundTask(info, onClose);
        return {
          write: (chunk) => tab.write(chunk),
          end: (outcome) => {
            here.end(outcome);
            tab.end(outcome);
          },
        };
      },
    };
  }

  /**
   * Between turns (ReplSession.nextAgent): after /clear a fresh agent, so the new conversation is
   * a session of its own; after a settings change one built with them, the conversation carried
   * over. A build that fails is told, and the tab goes on with the agent it had.
   */
  private async nextAgent(reason: 'line' | 'clear', current: unknown): Promise<Built | undefined> {
    if (current === undefined) return this.firstAgent();
    if (current !== this.agent || (reason === 'line' && !this.session.stale)) return undefined;
    const ready = reason === 'clear' ? await this.session.renew() : await this.session.ready();
    if (this.closed || 'superseded' in ready) return undefined;
    if ('problem' in ready) {
      const goesOn = reason === 'clear' ? 'The new conversation goes on with the agent this tab had.' : `The new settings could not be applied: this tab goes on with ${describeModel(this.session.models) || 'the agent it had'}, and tries again at your next message.`;
      this.write(`${describeProblem(ready.problem)}\n${style(goesOn, 'yellow', true)}\n`);
      return undefined;
    }
    if (ready.change === 'renewed') this.context = undefined;
    if (ready.change === 'rebuilt') this.write(`${style(`Settings changed: OpenDev now runs ${describeModel(this.session.models) || 'with them'}; the conversation goes on.`, 'dim', true)}\n`);
    return ready.change ? { agent: ready.agent, ...(this.session.models ? { models: this.session.models } : {}) } : undefined;
  }

  /** The agent this tab runs on from now: the status bar follows it. */
  private followed(agent: Agent): void {
    this.options.onStatus?.();
    // The status bar says whether its commands run sandboxed once the sandbox has looked.
    if (agent.sandbox && !agent.sandbox.knownStatus) void agent.sandbox.status().then(() => this.options.onStatus?.(), () => undefined);
  }

  private statusChanged(change: { busy?: boolean; context?: ContextInfo }): void {
    if (change.busy !== undefined) this.busy = change.busy;
    if (change.context) this.context = contextAfter(this.context, change.context) ?? this.context;
    this.options.onStatus?.();
  }

  private async tryBuild(options: { sessionId?: string }): ReturnType<AgentSource> {
    try {
      return await this.options.buildAgent(this.port, options, this.options.workingDir);
    } catch (err) {
      return { problem: { kind: 'error', id: '', text: `OpenDev could not start: ${(err as Error).message}` } };
    }
  }

  /** The tab's first agent; undefined (the tab says why: no key, bad settings) when it cannot be built yet, or once the tab is closed. */
  private async firstAgent(): Promise<Built | undefined> {
    const ready = this.resuming ? await this.resumed(this.resuming) : await this.session.ready();
    if (this.closed || 'superseded' in ready) return undefined;
    if ('agent' in ready) return { agent: ready.agent, ...(this.session.models ? { models: this.session.models } : {}) };
    this.write(`${describeProblem(ready.problem)}\n${style('Send your task again once that is done; /help and the commands that need no model work now.', 'dim', true)}\n`);
    return undefined;
  }

  /**
   * The session this tab had before the reload, continued: its agent gets the conversation back.
   * A session gone from disk (deleted meanwhile) is said, and the tab starts a new one.
   */
  private async resumed(id: string): ReturnType<AgentSession<ChatEntry>['ready']> {
    const loaded = await this.options.store?.load(id, this.options.workingDir).catch(() => undefined);
    if (!loaded) {
      this.resuming = undefined;
      this.write(`${style(vscode.l10n.t('The session {0} this tab had could not be read; this is a new conversation.', id), 'yellow', true)}\n`);
      return this.session.ready();
    }
    const ready = await this.session.resume(loaded);
    if (!('agent' in ready)) return ready; // no key yet: the next task tries again
    this.resuming = undefined;
    const { title } = loaded.record.meta;
    this.write(`${style(resumedLine(id, title, loaded.messages.length), 'dim', true)}\n`);
    return ready;
  }

  private onInput(data: string): void {
    this.options.onTyping?.();
    if (this.phase === 'building' || this.phase === 'running') this.keys.write(data);
  }

  /**
   * readline reads the width when it lays out the line being edited. No 'resize' event: readline
   * would redraw its prompt at once, in the middle of an answer being streamed.
   */
  private resize(d: vscode.TerminalDimensions): void {
    this.output.columns = d.columns;
    this.output.rows = d.rows;
  }

  private write(text: string): void {
    if (this.ending) return;
    this.pty.write(text);
  }

  private greeting(agent: Agent | undefined, models: readonly ModelInfo[] | undefined): string {
    const model = describeModel(models);
    return [
      style(`OpenDev${model ? ` · ${model}` : ''} · ${this.options.workingDir}`, 'bold', true),
      `${agent ? `Thinking ${agent.thinkingLevel}. ` : ''}Type a task, or /help for commands. Shift+Tab switches plan mode; Ctrl+C stops the agent; /exit closes this tab.`,
    ].join('\n');
  }
}

/** "gpt-4.1 (OpenAI)": the action model; empty when unknown. */
function describeModel(models: readonly ModelInfo[] | undefined): string {
  const action = models?.find((m) => m.role === 'action');
  return action ? `${action.model} (${action.provider})` : '';
}

/** Why no agent could be built, as the chat would show it: a setup card (no key yet) or an error. */
function describeProblem(problem: ChatEntry): string {
  if (problem.kind === 'setup') return `${style(problem.title, 'bold', true)}\n${problem.text}`;
  return style('text' in problem ? problem.text : vscode.l10n.t('OpenDev could not start.'), 'red', true);
}

/** The line a restored tab starts with: the session it goes on with (its title when it has one). */
function resumedLine(id: string, title: string | undefined, messages: number): string {
  // Four strings rather than pieces: a translation orders the title and the count as its language needs.
  if (title) {
    return messages === 1
      ? vscode.l10n.t('Resumed session {0} "{1}" (1 message): the conversation goes on.', id, title)
      : vscode.l10n.t('Resumed session {0} "{1}" ({2} messages): the conversation goes on.', id, title, messages);
  }
  return messages === 1
    ? vscode.l10n.t('Resumed session {0} (1 message): the conversation goes on.', id)
    : vscode.l10n.t('Resumed session {0} ({1} messages): the conversation goes on.', id, messages);
}
