import * as z from 'zod';
import type { ToolSchema } from '../llm/provider';
import type { ToolCall } from '../messages';
import { argumentsObject, checkedArguments } from './call-arguments';
import { isPlanFile } from '../files/workspace-boundary';
import { loadTemplate, renderTemplate } from '../templates';
import { compactJsonSchema } from './compact-json-schema';
import { summaryLine, ToolError, toolFailure, type ReviewedToolCall, type Tool, type ToolExecutionContext, type ToolResult } from './tool';

/**
 * Holds every tool, derives the JSON schemas the model sees from the zod schemas, and
 * dispatches calls: a tool only ever sees arguments its schema accepts (call-arguments.ts reads
 * each call once, for the approval step and for the run).
 */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  private readonly discovered = new Set<string>();
  private readonly resolvers: ToolResolver[] = [];
  /** JSON schemas made at build time for these very tool objects (builtin-parameters.ts). */
  private readonly prebuilt = new WeakMap<Tool, Record<string, unknown>>();
  private changes = 0;

  /** `parameters`: the tool's JSON schema as the build derived it from `tool.schema`, so it is not derived again here. */
  register(tool: Tool, parameters?: Record<string, unknown>): this {
    if (this.tools.has(tool.name)) throw new Error(`tool ${tool.name} is registered twice`);
    this.tools.set(tool.name, tool);
    if (parameters) this.prebuilt.set(tool, parameters);
    this.changes++;
    return this;
  }

  /** Removes a tool (an MCP server went away); its discovery is forgotten too. */
  unregister(name: string): void {
    if (this.tools.delete(name)) this.changes++;
    this.discovered.delete(name);
  }

  /** Grows whenever the schemas could change (tools added, removed or discovered): agents rebuild theirs then. */
  get version(): number {
    return this.changes;
  }

  /**
   * Deferred tools whose schemas join the next model call. Unknown names are ignored. At most
   * MAX_DISCOVERED stay: the least recently discovered or called drop out (a later call by name
   * discovers it again), so a long session's schemas stop growing.
   */
  discover(names: Iterable<string>): void {
    for (const name of names) {
      if (!this.tools.get(name)?.deferred) continue;
      if (this.discovered.delete(name)) {
        this.discovered.add(name); // most recent last; the schemas are unchanged
        continue;
      }
      this.discovered.add(name);
      this.changes++;
      if (this.discovered.size > MAX_DISCOVERED) this.discovered.delete(this.discovered.values().next().value!);
    }
  }

  isDiscovered(name: string): boolean {
    return this.discovered.has(name);
  }

  /** Deferred tools (discovered or not): what search_tools searches. */
  deferredTools(): Tool[] {
    return [...this.tools.values()].filter((t) => t.deferred);
  }

  /**
   * Asked for names no tool has (`mcp__<server>__<tool>` before its server started): a resolver
   * registers the tool and returns true when it knows the name.
   */
  addResolver(resolver: ToolResolver): void {
    this.resolvers.push(resolver);
  }

  /**
   * The tool for a name, registering it through the resolvers when it is not known yet; a
   * resolved or named deferred tool counts as discovered (calling it directly discovers it).
   */
  async resolve(name: string, signal?: AbortSignal): Promise<Tool | undefined> {
    if (!this.tools.has(name)) {
      for (const resolver of this.resolvers) {
        if (await resolver(name, signal).catch(() => false)) break;
      }
    }
    this.discover([name]);
    return this.tools.get(name);
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /** Schemas for the model, filtered by an agent's allow-list when it has one; deferred tools only once discovered. */
  schemas(allowed?: ReadonlySet<string>): ToolSchema[] {
    return [...this.tools.values()]
      .filter((t) => (!allowed || allowed.has(t.name)) && (!t.deferred || this.discovered.has(t.name)))
      .map((t) => ({
        name: t.name,
        description: t.description ?? loadTemplate(`tools/${t.name}.md`) ?? t.name,
        parameters: t.parameters ?? this.prebuilt.get(t) ?? jsonSchemaOf(t.schema),
      }));
  }

  /**
   * Why this agent may not make this call at all, whatever anyone would answer: a tool outside its
   * allow-list, a write in plan mode, a Planner's write to anything but its plan file. The dispatcher
   * asks before the approval step (nobody is asked about a call that cannot run); execute again.
   */
  refusal(call: ToolCall, ctx: ToolExecutionContext): ToolResult | undefined {
    const tool = this.tools.get(call.name);
    if (!tool) return undefined;
    if (ctx.agent.allowedTools && !ctx.agent.allowedTools.has(tool.name)) {
      return toolFailure('permission', `${call.name} is not available to the ${ctx.agent.name} agent. Use one of: ${[...ctx.agent.allowedTools].join(', ')}.`);
    }
    if (ctx.mode.mode === 'plan' && !tool.readOnly) {
      return toolFailure(
        'permission',
        `${call.name} changes the workspace, which plan mode does not allow. Finish the plan and present it with present_plan; edits can run once the user approves it.`,
      );
    }
    if (ctx.agent.planFilesOnly && !tool.readOnly) {
      const path = argumentsObject(call).file_path;
      if (tool.category !== 'file' || typeof path !== 'string' || !isPlanFile(path, { workspaceRoot: ctx.workspaceRoot })) {
        const template = loadTemplate('plan/planner-writes-only-plan.md') ?? '${TOOL} is refused: the Planner writes only its plan file, a markdown file directly in .opendev/plans/.';
        return toolFailure('permission', renderTemplate(template, { TOOL: call.name, TARGET: typeof path === 'string' ? `\`${path}\`` : 'the workspace' }));
      }
    }
    return undefined;
  }

  /** `call.review` (set by the approval gate) reaches the tool as `ctx.review`. */
  async execute(call: ReviewedToolCall, ctx: ToolExecutionContext): Promise<ToolResult> {
    const tool = this.tools.get(call.name);
    if (!tool) {
      // Deferred (MCP) tools stay out of the list: there may be hundreds; search_tools finds them.
      const listed = this.names().filter((n) => !this.tools.get(n)!.deferred);
      return toolFailure('not_found', `Unknown tool "${call.name}". Available tools: ${listed.join(', ')}.`);
    }
    const refused = this.refusal(call, ctx);
    if (refused) return refused;
    const checked = checkedArguments(call, tool);
    if (!checked.ok) return toolFailure('other', checked.problem);
    try {
      const result = await tool.run(checked.args, call.review ? { ...ctx, review: call.review } : ctx);
      // Every summary is one line of at most 200 characters, whatever the tool built.
      return { ...result, summary: summaryLine(result.summary) };
    } catch (err) {
      if (err instanceof ToolError) return toolFailure(err.kind, err.message);
      return toolFailure('other', `${call.name} failed: ${(err as Error).message ?? String(err)}`);
    }
  }
}

/** Discovered deferred tools kept in the schemas at once (three searches' worth of matches). */
export const MAX_DISCOVERED = 30;

/** Registers the tool called `name` when it can (true), e.g. by starting the MCP server that has it. */
export type ToolResolver = (name: string, signal?: AbortSignal) => Promise<boolean>;

/** The JSON schema the model sees for a tool's arguments. */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  return compactJsonSchema(z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>);
}
