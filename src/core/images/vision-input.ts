import type { AssistantMessage, ImageAttachment } from '../messages';
import { callModel, type TurnServices } from '../llm/model-call';
import type { ResolvedRoleModel, RoleResolver } from '../llm/role-resolver';
import type { TurnInput } from '../turn-input';
import { ProviderError } from '../llm/provider-error';
import { saveAttachedImages } from './attachment-files';
import { imageNames, imageText } from './image-texts';

/**
 * How images reach the model (§2.2.5, the vision role): the action model reads them itself when
 * it accepts images; otherwise a configured vision model describes them and the description goes
 * as text; with neither they cannot be used, and the user is told.
 */
export type ImageRoute =
  | { kind: 'native'; model: string }
  | { kind: 'describe'; model: ResolvedRoleModel; actionModel: string }
  | { kind: 'unsupported'; actionModel: string; reason: string };

export function imageRoute(roles: RoleResolver): ImageRoute {
  let action: ResolvedRoleModel | undefined;
  let vision: ResolvedRoleModel | undefined;
  try {
    action = roles.forRole('action');
    if (action?.capabilities?.vision) return { kind: 'native', model: action.model };
    vision = roles.forRole('vision');
  } catch (err) {
    // Building a client can fail (no key for the vision role's provider).
    return { kind: 'unsupported', actionModel: action?.model ?? '?', reason: (err as Error).message };
  }
  const actionModel = action?.model ?? '?';
  const sameAsAction = vision && action && vision.provider === action.provider && vision.model === action.model;
  if (vision && !sameAsAction) return { kind: 'describe', model: vision, actionModel };
  return { kind: 'unsupported', actionModel, reason: `${actionModel} cannot read images and no vision model is configured` };
}

/** The vision model's description of the images, for a model that cannot see them. */
export async function describeImages(model: ResolvedRoleModel, text: string, images: readonly ImageAttachment[], services: TurnServices): Promise<string> {
  const names = imageNames(images);
  const system = imageText('describe_system') ?? '';
  const request = imageText('describe_request', { NAMES: names, MESSAGE: text }) ?? names;
  const reply: AssistantMessage = { role: 'assistant', content: '', toolCalls: [] };
  await callModel(
    reply,
    model,
    { messages: [...(system ? [{ role: 'system' as const, content: system }] : []), { role: 'user', content: request, images: [...images] }], tools: [], purpose: 'vision' },
    services,
    { streamText: false },
  );
  const description = reply.content.trim();
  if (!description) throw new ProviderError('server', 'the vision model returned no description');
  return description;
}

/**
 * The turn's input as the action model can take it: images kept when it reads them, otherwise
 * described by the vision model (or, failing that, named in a note) inside the context; the user
 * hears about anything that did not reach the model.
 */
export async function prepareTurnInput(roles: RoleResolver, text: string, input: TurnInput, services: TurnServices, options: { imagesDir?: string } = {}): Promise<TurnInput> {
  const images = input.images ?? [];
  if (images.length === 0) return input.context ? { context: input.context } : {};
  const route = imageRoute(roles);
  // Saved where analyze_image can reach them after they leave the context (not when nothing reads images).
  const saved = options.imagesDir && route.kind !== 'unsupported' ? await savedImagesNote(options.imagesDir, images, services) : undefined;
  if (route.kind === 'native') {
    const context = [input.context, saved].filter(Boolean).join('\n\n');
    return context ? { ...input, context } : input;
  }
  const vars = { COUNT: String(images.length), NAMES: imageNames(images) };
  let block: string | undefined;
  if (route.kind === 'describe') {
    try {
      const description = await describeImages(route.model, text, images, services);
      block = imageText('description', { ...vars, MODEL: route.model.model, DESCRIPTION: description });
      services.ui.onNotice?.(`${route.actionModel} cannot read images: ${route.model.model} described them for it.`, 'info');
    } catch (err) {
      const reason = (err as Error).message;
      block = imageText('unreadable', { ...vars, REASON: `the vision model failed (${reason})` });
      if (!services.signal.aborted) services.ui.onNotice?.(`The image could not be described by ${route.model.model}: ${reason}. OpenDev goes on without it.`, 'warning');
    }
  } else {
    block = imageText('unreadable', { ...vars, REASON: route.reason });
    services.ui.onNotice?.(`The image was not sent: ${route.reason}. Choose a model that reads images, or set one for the vision role (opendev.roles.vision).`, 'warning');
  }
  const context = [input.context, block, saved].filter(Boolean).join('\n\n');
  return context ? { context } : {};
}

/** The note naming where the images were saved; a failed save is a warning and no note. */
async function savedImagesNote(dir: string, images: readonly ImageAttachment[], services: TurnServices): Promise<string | undefined> {
  try {
    const paths = await saveAttachedImages(dir, images);
    return imageText('saved', { PATHS: paths.join(', ') });
  } catch (err) {
    services.ui.onNotice?.(`The attached image could not be saved for later (${(err as Error).message}); the model sees it in this message only.`, 'warning');
    return undefined;
  }
}
