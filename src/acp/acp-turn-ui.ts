// The UICallback of a turn in an ACP client: what the core reports becomes session/update
// notifications (text, thinking, tool calls with their diffs and output, the todo list as the
// plan, the mode), and its blocking questions become session/request_permission.
import { randomBytes } from 'node:crypto';
import type { PlanEntry, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { CommandView } from '../core/host';
import type { Todo } from '../core/todo';
import type { ToolResult } from '../core/tool-result';
import type { AgentMode, ApprovalDecision, ApprovalRequest, AskUserAnswers, AskUserQuestion, PlanDecision, PlanForReview, UICallback } from '../core/ui';
import type { AcpChannel } from './acp-channel';
import { APPROVAL_OPTIONS, approvalDecision, chosenLabel, PLAN_OPTIONS, planDecision, questionOptions } from './permission-options';
import { MAX_SHOWN_CHARS, resultContent, textContent, toolArguments, toolKind, toolLocations, toolTitle } from './tool-call-view';

interface OpenCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  output: string;
  /** The client's terminal the command runs in (the client shows it live). */
  terminalId?: string;
}

export class AcpTurnUI implements UICallback {
  /** Calls started and not yet ended, oldest first: an approval or a command belongs to one of them. */
  private readonly open: OpenCall[] = [];
  /** Text streamed since the last tool call: the turn's answer, when it was streamed. */
  private streamed = '';

  constructor(
    private readonly channel: AcpChannel,
    private readonly workspaceRoot: string,
  ) {}

  /** The text streamed since the last tool call (the front end adds an answer that was not streamed). */
  get lastText(): string {
    return this.streamed;
  }

  onTextDelta(delta: string): void {
    this.streamed += delta;
    this.channel.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: delta } });
  }

  onThinkingDelta(delta: string): void {
    this.channel.update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: delta } });
  }

  onThinkingTrace(trace: string): void {
    this.channel.update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: `${trace}\n\n` } });
  }

  onNotice(text: string, level: 'info' | 'warning'): void {
    this.message(`${level === 'warning' ? '⚠ ' : ''}${text}`);
  }

  /** A line of ours in the conversation (a notice, the answer that was not streamed, an error). */
  message(text: string): void {
    this.channel.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `\n\n${text}\n\n` } });
  }

  onToolStart(call: { id: string; name: string; args: string }): void {
    this.streamed = '';
    const args = toolArguments(call.args);
    this.open.push({ id: call.id, name: call.name, args, output: '' });
    this.channel.update({
      sessionUpdate: 'tool_call',
      toolCallId: call.id,
      title: toolTitle(call.name, args),
      kind: toolKind(call.name),
      status: 'in_progress',
      locations: toolLocations(args, this.workspaceRoot),
      rawInput: args,
    });
  }

  onToolEnd(call: { id: string; name: string }, result: ToolResult): void {
    const index = this.open.findIndex((c) => c.id === call.id);
    const terminalId = index >= 0 ? this.open[index]?.terminalId : undefined;
    if (index >= 0) this.open.splice(index, 1);
    // A command that ran in the client's terminal keeps showing it (released, its output stays); a failure says why too.
    const content = terminalId ? [{ type: 'terminal' as const, terminalId }, ...(result.ok ? [] : [textContent(result.summary)])] : resultContent(result);
    this.channel.update({
      sessionUpdate: 'tool_call_update',
      toolCallId: call.id,
      status: result.ok ? 'completed' : 'failed',
      content,
      rawOutput: { summary: result.summary, ...(result.errorKind ? { errorKind: result.errorKind } : {}) },
    });
  }

  onTodos(todos: readonly Todo[]): void {
    const entries: PlanEntry[] = todos.map((todo) => ({
      content: todo.title,
      priority: 'medium',
      status: todo.status === 'done' ? 'completed' : todo.status === 'doing' ? 'in_progress' : 'pending',
    }));
    this.channel.update({ sessionUpdate: 'plan', entries });
  }

  onModeChange(mode: AgentMode): void {
    this.channel.update({ sessionUpdate: 'current_mode_update', currentModeId: mode });
  }

  /** A foreground command's live output (one of our own processes), shown on its tool call. */
  commandView(command: string): CommandView {
    const call = this.runningCommand(command);
    return {
      write: (chunk) => {
        if (!call || chunk.length === 0) return;
        call.output = (call.output + chunk).slice(-MAX_SHOWN_CHARS);
        this.channel.update({ sessionUpdate: 'tool_call_update', toolCallId: call.id, content: [textContent(call.output)] });
      },
      end: () => {},
    };
  }

  /** A command runs in the client's terminal: its tool call shows that terminal. */
  showTerminal(command: string, terminalId: string): void {
    const call = this.runningCommand(command);
    if (!call) return;
    call.terminalId = terminalId;
    this.channel.update({ sessionUpdate: 'tool_call_update', toolCallId: call.id, content: [{ type: 'terminal', terminalId }] });
  }

  /** Writes run one at a time: the open run_command with this command line (the approval may have edited it: then the latest). */
  private runningCommand(command: string): OpenCall | undefined {
    const runs = this.open.filter((c) => c.name === 'run_command');
    return runs.find((c) => c.args.command === command) ?? runs.at(-1);
  }

  async requestApproval(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    const call = request.kind === 'tool' ? [...this.open].reverse().find((c) => c.name === request.toolName) : undefined;
    const toolCall: ToolCallUpdate = {
      toolCallId: call?.id ?? `ask-${randomBytes(4).toString('hex')}`,
      title: request.title,
      kind: toolKind(request.toolName),
      status: 'pending',
      rawInput: call?.args ?? toolArguments(request.args),
      ...(call ? { locations: toolLocations(call.args, this.workspaceRoot) } : {}),
      ...(request.proposed
        ? { content: [{ type: 'diff', path: request.proposed.path, oldText: request.proposed.creates ? null : request.proposed.before, newText: request.proposed.after }] }
        : request.command
          ? { content: [textContent(`$ ${request.command}${request.sandbox === 'outside' ? '\n(outside the sandbox, with your full access)' : ''}`)] }
          : {}),
    };
    return approvalDecision(await this.channel.requestPermission(toolCall, APPROVAL_OPTIONS, signal));
  }

  async reviewPlan(plan: PlanForReview, signal: AbortSignal): Promise<PlanDecision> {
    const toolCall: ToolCallUpdate = {
      toolCallId: `plan-${randomBytes(4).toString('hex')}`,
      title: 'Approve the plan?',
      kind: 'switch_mode',
      status: 'pending',
      locations: [{ path: plan.path }],
      content: [textContent(plan.content)],
    };
    return planDecision(await this.channel.requestPermission(toolCall, PLAN_OPTIONS, signal));
  }

  /** One permission request per question; the first one the client cancels ends the survey (unanswered). */
  async askUser(questions: readonly AskUserQuestion[], signal: AbortSignal): Promise<AskUserAnswers | undefined> {
    const answers: AskUserAnswers['answers'] = [];
    for (const question of questions) {
      const toolCall: ToolCallUpdate = {
        toolCallId: `question-${randomBytes(4).toString('hex')}`,
        title: question.question,
        kind: 'other',
        status: 'pending',
        content: [textContent([question.header, ...question.options.map((o) => `- ${o.label}: ${o.description}`)].join('\n'))],
      };
      const label = chosenLabel(question, await this.channel.requestPermission(toolCall, questionOptions(question), signal));
      if (label === undefined) return undefined;
      answers.push({ header: question.header, selected: [label] });
    }
    return { answers };
  }
}
