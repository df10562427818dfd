import { callModel, type TurnServices } from '../llm/model-call';
import type { RoleResolver } from '../llm/role-resolver';
import type { AssistantMessage, Message } from '../messages';
import { loadTemplate, loadTemplateSections, renderTemplate } from '../templates';
import { renderTranscript } from './transcript';
import { splitWorkingMemory } from './working-memory';

export interface EpisodicOptions {
  /** Regenerate the summary after this many new messages (paper: 5). */
  every: number;
  /** Exchanges kept verbatim (paper: 6). */
  workingExchanges: number;
  /** Longest summary (paper: 500 characters). */
  maxChars: number;
}

export const DEFAULT_EPISODIC: EpisodicOptions = { every: 5, workingExchanges: 6, maxChars: 500 };

/**
 * Dual memory for the thinking phase (paper §2.3.5): an episodic summary of the whole conversation
 * plus the last exchanges verbatim plus the current query, instead of the full history.
 *
 * The summary is regenerated from the FULL history (never from the previous summary, so errors do
 * not compound) once `every` new messages have arrived, and only when it is needed: when the
 * history is longer than the working memory and thinking asks for the view. Between
 * regenerations the cached summary is used. A failed summary call keeps the old summary.
 */
export class EpisodicMemory {
  private cached: string | undefined;
  /** History length when the summary was last regenerated (or attempted). */
  private summarisedAt = 0;

  constructor(
    private readonly roles: RoleResolver,
    private readonly options: EpisodicOptions = DEFAULT_EPISODIC,
  ) {}

  get summary(): string | undefined {
    return this.cached;
  }

  /** The messages the thinking phase reasons over. Never throws. */
  async view(history: readonly Message[], query: string | undefined, services: TurnServices): Promise<Message[]> {
    const conversation = history.filter((m) => m.role !== 'system');
    if (conversation.length < this.summarisedAt) {
      // Compaction or a cleared conversation: the summary describes another history.
      this.cached = undefined;
      this.summarisedAt = 0;
    }
    const { older, recent } = splitWorkingMemory(conversation, this.options.workingExchanges);
    if (older.length === 0) return conversation;
    if (conversation.length - this.summarisedAt >= this.options.every) {
      this.summarisedAt = conversation.length;
      const fresh = await this.summarise(conversation, services);
      if (fresh) this.cached = fresh;
    }
    const sections = loadTemplateSections('memory/working-memory.md');
    const view: Message[] = [];
    const summaryText = sections.get('summary');
    if (this.cached && summaryText) view.push({ role: 'user', content: renderTemplate(summaryText, { SUMMARY: this.cached }) });
    view.push(...recent);
    const current = query ?? lastUserText(conversation);
    const queryText = sections.get('query');
    if (current && queryText && !recent.some((m) => m.role === 'user' && m.content === current)) {
      view.push({ role: 'user', content: renderTemplate(queryText, { QUERY: current }) });
    }
    return view;
  }

  private async summarise(conversation: readonly Message[], services: TurnServices): Promise<string | undefined> {
    const template = loadTemplate('memory/episodic.md');
    if (!template) return undefined;
    const reply: AssistantMessage = { role: 'assistant', content: '', toolCalls: [] };
    try {
      // Resolving the role may throw too (a compact model on a provider without a key).
      const model = this.roles.forRole('compact');
      if (!model) return undefined;
      await callModel(
        reply,
        model,
        {
          messages: [
            { role: 'system', content: renderTemplate(template, { MAX_CHARS: String(this.options.maxChars) }) },
            { role: 'user', content: renderTranscript(conversation) },
          ],
          tools: [],
          purpose: 'episodic',
        },
        services,
        { streamText: false },
      );
    } catch {
      return undefined; // the turn goes on with the old summary (or none)
    }
    const text = reply.content.trim().replace(/\s+/g, ' ');
    if (!text) return undefined;
    return text.length > this.options.maxChars ? `${text.slice(0, this.options.maxChars - 1)}…` : text;
  }
}

function lastUserText(conversation: readonly Message[]): string | undefined {
  for (let i = conversation.length - 1; i >= 0; i--) {
    const m = conversation[i]!;
    if (m.role === 'user') return m.content;
  }
  return undefined;
}
