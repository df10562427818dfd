import * as vscode from 'vscode';
import { z } from 'zod';
import { playbookLearningFromEnv } from '../core/config/playbook-learning';
import { buildRoleSettings, OPTIONAL_ROLES, RoleOverrideSchema, type OptionalRole } from '../core/config/role-overrides';
import type { RoleSettings } from '../core/llm/model-roles';
import { APPROVAL_LEVELS, type ApprovalLevel } from '../core/safety/approval-level';
import { THINKING_LEVELS, type ThinkingLevel } from '../core/agent/thinking-level';
import {
  DEFAULT_MODELS,
  PROVIDER_KINDS,
  ProviderSettingsSchema,
  type ProviderKind,
  type ProviderSettings,
} from '../core/config/provider-settings';

export const SECTION = 'opendev';

export function secretKeyFor(provider: ProviderKind): string {
  return `opendev.apiKey.${provider}`;
}

export function currentProvider(): ProviderKind {
  const value = vscode.workspace.getConfiguration(SECTION).get<string>('provider', 'openai');
  return (PROVIDER_KINDS as readonly string[]).includes(value) ? (value as ProviderKind) : 'openai';
}

export type SettingsOutcome = { ok: true; settings: ProviderSettings; roles: RoleSettings } | { ok: false; problem: string };

/** Reads `opendev.*` and the key from SecretStorage; a bad value is reported, never thrown. */
export async function readProviderSettings(secrets: vscode.SecretStorage): Promise<SettingsOutcome> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const provider = currentProvider();
  const parsed = ProviderSettingsSchema.safeParse({
    provider,
    model: config.get<string>('model')?.trim() || DEFAULT_MODELS[provider],
    baseUrl: config.get<string>('baseUrl')?.trim() || undefined,
    apiKey: (await secrets.get(secretKeyFor(provider))) || undefined,
    ...(config.get<number>('contextWindow') ? { contextWindow: config.get<number>('contextWindow') } : {}),
    ...(config.get<string>('embeddingModel')?.trim() ? { embeddingModel: config.get<string>('embeddingModel')!.trim() } : {}),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, problem: `The setting opendev.${String(issue?.path[0])} is invalid: ${issue?.message}` };
  }
  const overrides = RoleOverridesSchema.safeParse(config.get('roles') ?? {});
  if (!overrides.success) {
    const issue = overrides.error.issues[0];
    return { ok: false, problem: `The setting opendev.roles.${issue?.path.join('.')} is invalid: ${issue?.message}` };
  }
  const keys = new Map<ProviderKind, string | undefined>();
  for (const role of OPTIONAL_ROLES) {
    const other = overrides.data[role]?.provider;
    if (other && !keys.has(other)) keys.set(other, (await secrets.get(secretKeyFor(other))) || undefined);
  }
  return { ok: true, settings: parsed.data, roles: buildRoleSettings(parsed.data, overrides.data, (p) => keys.get(p)) };
}

/** `opendev.roles`: the thinking, critique, vision and compact models, each optional. */
const RoleOverridesSchema = z.object(Object.fromEntries(OPTIONAL_ROLES.map((r) => [r, RoleOverrideSchema.optional()])) as Record<OptionalRole, z.ZodOptional<typeof RoleOverrideSchema>>);

/** `opendev.approvalLevel`; an unknown value falls back to the default (semi-auto). */
export function readApprovalLevel(): ApprovalLevel {
  const value = vscode.workspace.getConfiguration(SECTION).get<string>('approvalLevel', 'semi-auto');
  return (APPROVAL_LEVELS as readonly string[]).includes(value) ? (value as ApprovalLevel) : 'semi-auto';
}

/**
 * `opendev.playbook.learn` when the user set it, else `OPENDEV_PLAYBOOK_LEARN`, else on
 * (defaults < environment < user settings).
 */
export function readPlaybookLearning(): boolean {
  const inspected = vscode.workspace.getConfiguration(SECTION).inspect<boolean>('playbook.learn');
  const chosen = inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? inspected?.globalValue;
  return chosen ?? playbookLearningFromEnv(process.env) ?? true;
}

/** `opendev.thinkingLevel`; an unknown value falls back to the default (medium). */
export function readThinkingLevel(): ThinkingLevel {
  const value = vscode.workspace.getConfiguration(SECTION).get<string>('thinkingLevel', 'medium');
  return (THINKING_LEVELS as readonly string[]).includes(value) ? (value as ThinkingLevel) : 'medium';
}

/** Settings whose change needs a new agent (provider, model, endpoint, approvals); the thinking level does not. */
export const AGENT_SETTINGS = ['provider', 'model', 'baseUrl', 'contextWindow', 'embeddingModel', 'playbook.learn', 'roles', 'approvalLevel'].map((key) => `${SECTION}.${key}`);
