import type { Agent } from '../core/agent/agent';
import type { TurnResult } from '../core/agent/turn-result';
import { createSlashCommands, escapedPrompt, isSlashCommand, parseSlashCommand, type CommandAgent, type CommandContext, type CommandResult, type KeylessContext, type ModelInfo, type SlashCommandRegistry } from '../core/commands/slash-commands';
import type { SessionRecorder } from '../core/session/session-recorder';
import type { AgentMode, ContextInfo, UICallback } from '../core/ui';
import { CLEAR_SCREEN, style } from './ansi';
import type { LineSource } from './line-source';
import { approvalMenu, askUserMenu, planReviewMenu, type MenuIO } from './menus';
import { StreamRenderer } from './stream-renderer';

/** What the REPL needs from the agent (the real Agent, or a stand-in in tests). */
export type ReplAgent = CommandAgent & Pick<Agent, 'runTurn' | 'inject' | 'interrupt'>;

/** The output side of a terminal: a byte sink, plus an optional prompt that the transport keeps on screen. */
export interface TerminalIO {
  write(text: string): void;
  /** Shows the input prompt (readline redraws it while the user edits). Without it the prompt is written as text. */
  prompt?(text: string): void;
}

export interface ReplOptions {
  /**
   * The agent to start with. Without one (no key yet) the commands that need no model run, and
   * anything else asks `nextAgent` for one first (the host says why it cannot be built).
   */
  agent?: ReplAgent;
  input: LineSource;
  io: TerminalIO;
  color: boolean;
  commands?: SlashCommandRegistry;
  /** Saves the conversation after every turn; absent = nothing is saved. */
  recorder?: SessionRecorder;
  /**
   * What a line typed while the agent works does: `inject` (a person at a terminal) queues it into
   * the running turn with agent.inject(); `queue` (piped input) keeps it for after the turn, so a
   * script of lines runs in order and menu answers reach their menus.
   */
  typeAhead?: 'inject' | 'queue';
  models?: readonly ModelInfo[];
  front?: CommandContext['front'];
  /** Printed once at the start. */
  greeting?: string;
  showThinking?: boolean;
  /** The terminal's width, when there is one (the answer's unfinished line shows as it arrives). */
  columns?: () => number | undefined;
  /** Write each line read after its prompt (for input that the terminal does not echo: pipes, tests). */
  echoInput?: boolean;
  /**
   * Lets the host put another agent in place between turns: before each line typed at the prompt
   * is acted on (`line`: its settings may have changed, or there is no agent yet) and after /clear
   * (`clear`: the new conversation may get an agent, and a session, of its own). Resolves to the
   * agent to go on with and its models (for /models); undefined keeps the current one (or none).
   */
  nextAgent?: (reason: 'line' | 'clear', current: ReplAgent | undefined) => Promise<{ agent: ReplAgent; models?: readonly ModelInfo[] } | undefined>;
  /**
   * Told whenever what a status display shows may have changed: a turn started or ended (`busy`),
   * the context meter moved (`context`), the mode switched or a command ran (neither).
   */
  onStatus?: (change: { busy?: boolean; context?: ContextInfo }) => void;
}

/**
 * The line-based interactive session: a prompt, streamed answers and tool lines, numbered menus
 * for approvals, questions and plan reviews, slash commands, follow-ups queued while the agent
 * works. It reads a LineSource and writes to a TerminalIO, so the CLI (readline on stdin/stdout)
 * and the OpenDev pseudoterminal can both drive it. The host calls interrupt() on Ctrl+C and
 * toggleMode() on Shift+Tab.
 */
export class ReplSession {
  private agent: ReplAgent | undefined;
  /** Plan or normal before there is an agent (Shift+Tab works before a key is set too). */
  private chosenMode: AgentMode = 'normal';
  private models: readonly ModelInfo[] | undefined;
  private readonly renderer: StreamRenderer;
  private readonly commands: SlashCommandRegistry;
  private readonly typeAhead: 'inject' | 'queue';
  private readonly ui: UICallback;
  private readonly menuIO: MenuIO;
  /** Lines read but not consumed yet. */
  private readonly pending: string[] = [];
  /** The one reader waiting for a line: the idle prompt or an open menu. */
  private waiter: ((line: string | undefined) => void) | undefined;
  private inputEnded = false;
  private quitting = false;
  private turnActive = false;
  private ctrlCAtPrompt = false;
  /** The prompt on screen while a line is awaited (the idle prompt or a menu's), to redraw it. */
  private shownPrompt: { text: string; kind?: 'cyan' } | undefined;
  private atIdlePrompt = false;

  constructor(private readonly options: ReplOptions) {
    this.agent = options.agent;
    this.models = options.models;
    this.renderer = new StreamRenderer((t) => options.io.write(t), { color: options.color, showThinking: options.showThinking, columns: options.columns });
    this.commands = options.commands ?? createSlashCommands();
    this.typeAhead = options.typeAhead ?? 'inject';
    this.menuIO = {
      color: options.color,
      write: (text) => {
        this.renderer.newline();
        this.renderer.raw(text);
      },
      ask: async (prompt, signal) => {
        this.prompt(prompt);
        return this.echo(await this.nextLine(signal));
      },
    };
    const r = this.renderer;
    this.ui = {
      onTextDelta: (d) => r.onTextDelta(d),
      onToolStart: (c) => r.onToolStart(c),
      onToolEnd: (c, res) => r.onToolEnd(c, res),
      onThinkingDelta: (d) => r.onThinkingDelta(d),
      onThinkingTrace: (t, p) => r.onThinkingTrace(t, p),
      onRetry: (i) => r.onRetry(i),
      onNotice: (t, l) => r.onNotice(t, l),
      onTodos: (t) => r.onTodos(t),
      onSubagentStart: (i) => r.onSubagentStart(i),
      onSubagentEnd: (i) => r.onSubagentEnd(i),
      onModeChange: (m) => {
        r.onModeChange(m);
        options.onStatus?.({});
      },
      onContext: (info) => options.onStatus?.({ context: info }),
      requestApproval: (req, signal) => approvalMenu(this.menuIO, req, signal),
      askUser: (questions, signal) => askUserMenu(this.menuIO, questions, signal),
      reviewPlan: (plan, signal) => planReviewMenu(this.menuIO, plan, signal),
    };
  }

  /** Runs until /exit, Ctrl+C twice at the prompt, or the end of the input. Returns the exit code. */
  async run(): Promise<number> {
    if (this.options.greeting) this.renderer.line(this.options.greeting);
    void this.pump();
    while (!this.quitting) {
      this.prompt(this.idlePrompt(), 'cyan');
      this.atIdlePrompt = true;
      const line = this.echo(await this.nextLine());
      this.atIdlePrompt = false;
      if (line === undefined) break;
      this.ctrlCAtPrompt = false;
      // A command that needs no model runs without one: no agent is built for it.
      if (line.trim() && (this.agent || this.needsAgent(line.trim()))) await this.takeNextAgent('line');
      await this.handle(line);
    }
    this.renderer.newline();
    return 0;
  }

  /** Ctrl+C: cancels an open menu, else stops the running turn; at the prompt, twice in a row quits. */
  interrupt(): void {
    if (this.turnActive && this.agent) {
      const what = this.agent.interrupt();
      if (what === 'modal_cancelled') this.renderer.line('(cancelled)', 'dim');
      else if (what === 'interrupted') this.renderer.line('(stopping…)', 'dim');
      return;
    }
    if (this.ctrlCAtPrompt) {
      this.quitting = true;
      this.deliver(undefined);
      return;
    }
    this.ctrlCAtPrompt = true;
    // The cursor sits after the prompt (and whatever was typed): end that line first.
    if (this.options.io.prompt) this.renderer.raw('\n');
    this.renderer.line('(press Ctrl+C again to exit, or type /exit)', 'dim');
    this.prompt(this.idlePrompt(), 'cyan');
  }

  /**
   * Shift+Tab: plan ⇄ normal, at any time (a running turn picks it up at its next step). Says so
   * on a line of its own and puts the prompt back (with what was typed), showing the new mode.
   */
  toggleMode(): AgentMode {
    const mode: AgentMode = this.mode === 'plan' ? 'normal' : 'plan';
    this.chosenMode = mode;
    this.agent?.setMode(mode);
    const shown = this.shownPrompt;
    // A prompt drawn by the transport leaves the cursor after it: end that line first.
    if (shown && this.options.io.prompt) this.renderer.raw('\n');
    this.renderer.line(
      mode === 'plan' ? 'plan mode: OpenDev explores and writes a plan before it changes anything (Shift+Tab: back to normal)' : 'normal mode (Shift+Tab: plan mode)',
      'dim',
    );
    if (shown) this.prompt(this.atIdlePrompt ? this.idlePrompt() : shown.text, shown.kind);
    this.options.onStatus?.({});
    return mode;
  }

  private get mode(): AgentMode {
    return this.agent?.mode ?? this.chosenMode;
  }

  private idlePrompt(): string {
    return this.mode === 'plan' ? 'plan › ' : '› ';
  }

  /** A prompt, or a command that needs the agent (a model and its key). */
  private needsAgent(text: string): boolean {
    return !isSlashCommand(text) || this.commands.needsAgent(text);
  }

  private async handle(line: string): Promise<void> {
    const text = line.trim();
    if (!text) return;
    // Still no agent: the host has said why (no key…) when it was asked for one.
    if (!this.agent && this.needsAgent(text)) return;
    if (isSlashCommand(text)) return this.runCommand(text);
    await this.runTurn(escapedPrompt(text));
  }

  private async runCommand(text: string): Promise<void> {
    const result = await this.commands.run(text, this.context());
    this.showCommandResult(result);
    if (result.newSession) {
      this.options.recorder?.detach();
      await this.takeNextAgent('clear');
    }
    if (result.exit) this.quitting = true;
    this.options.onStatus?.({});
    if (result.runPrompt && !this.quitting) await this.runTurn(result.runPrompt);
  }

  private async takeNextAgent(reason: 'line' | 'clear'): Promise<void> {
    const next = await this.options.nextAgent?.(reason, this.agent);
    if (!next) return;
    // The first agent takes the mode chosen before it existed.
    if (!this.agent && next.agent.mode !== this.chosenMode) next.agent.setMode(this.chosenMode);
    this.agent = next.agent;
    this.models = next.models;
  }

  private showCommandResult(result: CommandResult): void {
    if (result.clearScreen && this.options.color) this.renderer.raw(CLEAR_SCREEN);
    if (result.output) this.renderer.line(result.output, result.error === 'usage' ? 'red' : result.error === 'unavailable' ? 'yellow' : undefined);
  }

  private async runTurn(text: string): Promise<void> {
    const agent = this.agent;
    if (!agent) return;
    this.turnActive = true;
    this.options.onStatus?.({ busy: true });
    this.renderer.startTurn();
    let result: TurnResult;
    try {
      result = await agent.runTurn(text, this.ui);
    } catch (err) {
      this.renderer.line(`Error: ${(err as Error).message ?? String(err)}`, 'red');
      return;
    } finally {
      this.turnActive = false;
      this.options.onStatus?.({ busy: false });
    }
    this.renderer.newline();
    const answer = result.text.trim();
    if (answer && !this.renderer.streamedText.includes(answer)) this.renderer.answer(answer);
    this.showOutcome(result);
    await this.save(agent);
  }

  private showOutcome(result: TurnResult): void {
    switch (result.status) {
      case 'failed':
        this.renderer.line(result.error.message, 'red');
        break;
      case 'stopped':
        this.renderer.line('(stopped)', 'dim');
        break;
      case 'iteration_limit':
        this.renderer.line(`! The agent stopped at its iteration limit (${result.iterations} steps). Type "continue" to let it go on.`, 'yellow');
        break;
      case 'completed':
        if (result.taskStatus === 'failure') this.renderer.line('! The agent reports that it could not complete the task.', 'yellow');
        break;
    }
  }

  private async save(agent: ReplAgent): Promise<void> {
    const recorder = this.options.recorder;
    if (!recorder) return;
    try {
      await recorder.save(agent);
    } catch (err) {
      this.renderer.line(`! Could not save the session: ${(err as Error).message}`, 'yellow');
    }
  }

  private context(): KeylessContext {
    const recorder = this.options.recorder;
    return {
      ...(this.agent ? { agent: this.agent } : {}),
      sessions: recorder?.store,
      session: recorder?.current,
      front: this.options.front ?? 'cli',
      workingDir: recorder?.workingDir,
      models: this.models,
      // The numbered menu, as for ask_user (/init asks before replacing OPENDEV.md).
      askUser: this.ui.askUser,
    };
  }

  /** A line typed while a turn runs (and no menu is open), in `inject` mode. */
  private async onTypeAhead(line: string): Promise<void> {
    const text = line.trim();
    if (!text) return;
    if (isSlashCommand(text)) {
      const command = this.commands.get(parseSlashCommand(text)!.name);
      if (command && !command.whileRunning) {
        this.pending.push(line);
        this.renderer.line(`(/${command.name} will run when the agent finishes)`, 'dim');
        return;
      }
      const result = await this.commands.run(text, this.context());
      this.showCommandResult({ ...result, clearScreen: false });
      if (result.exit) {
        this.quitting = true;
        this.agent?.interrupt();
      }
      return;
    }
    if (this.agent?.inject(escapedPrompt(text))) {
      this.renderer.line(`queued: ${text}`, 'dim');
    } else if (!this.agent?.running) {
      this.pending.push(line); // the turn just ended: it becomes the next prompt
    } else {
      this.pending.push(line);
      this.renderer.line('(the follow-up queue is full: this message will be sent when the agent finishes)', 'yellow');
    }
  }

  private prompt(text: string, kind?: 'cyan'): void {
    this.shownPrompt = { text, ...(kind ? { kind } : {}) };
    this.renderer.newline();
    const shown = kind ? style(text, kind, this.options.color) : text;
    if (this.options.io.prompt) this.options.io.prompt(shown);
    else this.renderer.raw(shown);
  }

  private echo(line: string | undefined): string | undefined {
    this.shownPrompt = undefined;
    if (this.options.echoInput && line !== undefined) this.renderer.raw(`${line}\n`);
    return line;
  }

  private nextLine(signal?: AbortSignal): Promise<string | undefined> {
    if (this.pending.length > 0) return Promise.resolve(this.pending.shift());
    if (this.inputEnded || this.quitting || signal?.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const onAbort = () => finish(undefined);
      const finish = (line: string | undefined) => {
        if (this.waiter === finish) this.waiter = undefined;
        signal?.removeEventListener('abort', onAbort);
        resolve(line);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiter = finish;
    });
  }

  private deliver(line: string | undefined): boolean {
    const waiter = this.waiter;
    if (!waiter) return false;
    waiter(line);
    return true;
  }

  /** Reads the input for as long as it lasts and routes each line. */
  private async pump(): Promise<void> {
    for (;;) {
      const line = await this.options.input.next();
      if (line === undefined) {
        this.inputEnded = true;
        this.deliver(undefined);
        return;
      }
      if (this.deliver(line)) continue;
      if (this.turnActive && this.typeAhead === 'inject') void this.onTypeAhead(line);
      else this.pending.push(line);
    }
  }
}
