import { existsSync } from 'node:fs';
import { platform } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { ProviderSettings } from '../../config/provider-settings';

/** The model family a prompt is written for; `other` = an OpenAI-compatible server we know nothing about. */
export type PromptProvider = 'openai' | 'anthropic' | 'fireworks' | 'other';

/**
 * The runtime facts section conditions look at and variables are filled from. Every field is
 * optional: a composer given less (the thinking phase) still works, and conditions on a missing fact
 * are false.
 */
export interface PromptContext {
  workspaceRoot?: string;
  platform?: string;
  /** YYYY-MM-DD. */
  date?: string;
  inGitRepo?: boolean;
  /** The subagent type names the agent may spawn; empty or absent = no subagents. */
  subagentTypes?: readonly string[];
  todoEnabled?: boolean;
  provider?: PromptProvider;
  sessionId?: string;
  scratchDir?: string;
  /** The skills invoke_skill can load: the prompt lists their names and descriptions, never their bodies. */
  skills?: ReadonlyArray<{ name: string; description: string }>;
}

/** The main agent always knows its workspace. */
export type MainPromptContext = PromptContext & { workspaceRoot: string };

/** Fireworks speaks the OpenAI wire format; only its base URL tells it apart. */
export function promptProviderOf(settings: Pick<ProviderSettings, 'provider' | 'baseUrl'>): PromptProvider {
  if (settings.provider === 'anthropic') return 'anthropic';
  if (settings.baseUrl?.toLowerCase().includes('fireworks')) return 'fireworks';
  return settings.provider === 'openai' ? 'openai' : 'other';
}

/** True when `start` or a folder above it holds `.git` (a folder, or a file in worktrees and submodules). */
export function isInGitRepo(start: string): boolean {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, '.git'))) return true;
    const parent = dirname(dir);
    if (parent === dir) return false;
    dir = parent;
  }
}

/** The main agent's facts: the workspace, its model, its subagents; todos are always on for it. */
export function mainPromptContext(options: {
  workspaceRoot: string;
  action: Pick<ProviderSettings, 'provider' | 'baseUrl'>;
  subagentTypes: readonly string[];
  sessionId: string;
  scratchDir: string;
}): MainPromptContext {
  return {
    workspaceRoot: options.workspaceRoot,
    platform: platform(),
    date: new Date().toISOString().slice(0, 10),
    inGitRepo: isInGitRepo(options.workspaceRoot),
    subagentTypes: options.subagentTypes,
    todoEnabled: true,
    provider: promptProviderOf(options.action),
    sessionId: options.sessionId,
    scratchDir: options.scratchDir,
  };
}
