import type { RoleResolver } from '../llm/role-resolver';
import type { RoleSettings } from '../config/model-role-settings';
import { AgentMemory } from './agent-memory';
import { DEFAULT_EPISODIC } from './episodic-memory';
import { CachedEmbedder } from './playbook/cached-embedder';
import { LexicalEmbedder, type Embedder } from './playbook/embedding';
import { OpenAiEmbedder } from './playbook/openai-embedder';
import { playbookPath, PlaybookStore } from './playbook/playbook-store';

export interface AgentMemorySetup {
  roles: RoleResolver;
  settings: RoleSettings;
  workspaceRoot: string;
  /** OPENDEV_HOME; default from the environment. */
  home?: string;
  /** Run the reflector and curator (two extra calls on the compact model every few messages). */
  learn: boolean;
  /** Messages between two reflections (setting `playbook.reflectEvery`); default the paper's 5. */
  reflectEvery?: number;
  /** New messages before the episodic summary is made again (setting `memory.summaryEvery`); default the paper's 5. */
  summaryEvery?: number;
  onWarning?: (message: string) => void;
}

/** The main agent's memory, with the project's playbook and the embedder the settings allow. */
export function createAgentMemory(setup: AgentMemorySetup): AgentMemory {
  const store = new PlaybookStore(playbookPath(setup.workspaceRoot, setup.home), { onWarning: setup.onWarning });
  return new AgentMemory({
    roles: setup.roles,
    store,
    learn: setup.learn,
    ...(setup.reflectEvery !== undefined ? { reflectEvery: setup.reflectEvery } : {}),
    ...(setup.summaryEvery !== undefined ? { episodic: { ...DEFAULT_EPISODIC, every: setup.summaryEvery } } : {}),
    embedder: playbookEmbedder(setup.settings, setup.onWarning),
    onWarning: setup.onWarning,
  });
}

/**
 * Provider embeddings when the action model's endpoint speaks the OpenAI API and an embedding
 * model is set (`embeddingModel`), with the local lexical embedding as the fallback; otherwise
 * the lexical embedding alone, which works offline.
 */
export function playbookEmbedder(settings: RoleSettings, onWarning?: (message: string) => void): Embedder {
  const lexical = new LexicalEmbedder();
  const action = settings.action;
  if (!action.embeddingModel || action.provider === 'anthropic') return lexical;
  const provider = new OpenAiEmbedder({ model: action.embeddingModel, apiKey: action.apiKey ?? 'not-needed', baseUrl: action.baseUrl });
  return new CachedEmbedder(provider, lexical, {
    onFallback: (err) => onWarning?.(`Embeddings from ${action.embeddingModel} failed (${err.message}); the playbook matches by words for now.`),
  });
}
