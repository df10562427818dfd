import type { AssistantMessage, ImageAttachment } from '../messages';
import { callModel, type TurnServices } from '../llm/model-call';
import type { ResolvedRoleModel, RoleResolver } from '../llm/role-resolver';
import { sectionText } from '../template-text';
import { loadTemplateSections, renderTemplate } from '../templates';
import { imageNames } from './image-texts';

/** What analyze_image needs of the agent: one question about some images, answered by the vision role. */
export interface VisionPort {
  /** Throws VisionUnavailableError when no configured model reads images; provider errors pass through. */
  describe(images: readonly ImageAttachment[], question: string, signal: AbortSignal): Promise<VisionAnswer>;
}

export interface VisionAnswer {
  text: string;
  /** The model that answered. */
  model: string;
}

/** No model here reads images; the message says how to configure one. */
export class VisionUnavailableError extends Error {
  constructor(reason: string) {
    super(sectionText('vision/texts.md', 'unavailable', { REASON: reason }));
    this.name = 'VisionUnavailableError';
  }
}

/**
 * The vision role as a port for tools: the vision model when one is configured, else the action
 * model when it accepts images (ModelRoles' fallback). The calls count toward the session's cost
 * and the turn's usage through `services`, like every other model call.
 */
export function createVisionPort(roles: RoleResolver, services: Omit<TurnServices, 'signal'>): VisionPort {
  return {
    async describe(images, question, signal) {
      const model = visionModel(roles);
      const sections = loadTemplateSections('vision/analyze.md');
      const system = sections.get('system') ?? '';
      // Without its template the question still goes, as it is.
      const template = sections.get('request');
      const request = template === undefined ? question : renderTemplate(template, { NAMES: imageNames(images), QUESTION: question });
      const reply: AssistantMessage = { role: 'assistant', content: '', toolCalls: [] };
      await callModel(
        reply,
        model,
        { messages: [...(system ? [{ role: 'system' as const, content: system }] : []), { role: 'user', content: request, images: [...images] }], tools: [], purpose: 'vision' },
        { ...services, signal },
        { streamText: false },
      );
      return { text: reply.content.trim(), model: model.model };
    },
  };
}

function visionModel(roles: RoleResolver): ResolvedRoleModel {
  let model: ResolvedRoleModel | undefined;
  try {
    model = roles.forRole('vision');
  } catch (err) {
    // Building the client failed: the vision role's provider has no key.
    throw new VisionUnavailableError(`The vision model cannot be used: ${(err as Error).message}`);
  }
  if (model) return model;
  let action = '?';
  try {
    action = roles.forRole('action')?.model ?? '?';
  } catch {
    // Only for the message.
  }
  throw new VisionUnavailableError(`No model here reads images: ${action} does not, and no vision model is configured`);
}
