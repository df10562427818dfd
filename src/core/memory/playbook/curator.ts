import type { TurnServices } from '../../llm/model-call';
import type { ResolvedRoleModel } from '../../llm/role-resolver';
import { loadTemplate, renderTemplate } from '../../templates';
import { askForJson, type JsonReply } from '../json-reply';
import type { Playbook } from './bullet';
import { DeltaBatchSchema, type DeltaBatch, type DeltaLimits } from './delta';
import type { Reflection } from './reflector';

/** ACE curator: turns the reflector's insights into a DeltaBatch against the current playbook. */
export async function curate(
  model: ResolvedRoleModel,
  playbook: Playbook,
  insights: Reflection['insights'],
  limits: DeltaLimits,
  services: TurnServices,
): Promise<JsonReply<DeltaBatch>> {
  const template = loadTemplate('memory/curator.md');
  if (!template) return { ok: false, error: 'templates/memory/curator.md is missing' };
  const prompt = renderTemplate(template, {
    PLAYBOOK: playbook.bullets.map((b) => `- [${b.id}] (${b.section}) helpful=${b.helpful} harmful=${b.harmful} neutral=${b.neutral} :: ${b.content}`).join('\n'),
    INSIGHTS: insights.map((i) => `- ${i.section ? `(${i.section}) ` : ''}${i.content}`).join('\n'),
    MAX_CHARS: String(limits.maxContentChars),
  });
  return askForJson({ model, purpose: 'curator', prompt, schema: DeltaBatchSchema, retryReminder: 'curator_json_retry' }, services);
}
