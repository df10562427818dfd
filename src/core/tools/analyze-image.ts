import * as z from 'zod';
import { MAX_IMAGES_PER_MESSAGE } from '../../shared/image-attachment';
import { readImageFile } from '../images/image-file';
import { imageNames } from '../images/image-texts';
import { VisionUnavailableError } from '../images/vision-port';
import { sectionText } from '../template-text';
import { summaryLine, ToolError, type Tool } from './tool';
import { displayPath, resolveReadable } from '../files/workspace-path';

const schema = z.lazy(() => z.object({
  paths: z.array(z.string().min(1)).min(1).max(MAX_IMAGES_PER_MESSAGE).describe('PNG, JPEG, GIF or WebP files.'),
  question: z.string().trim().min(1).describe('What to find out.'),
}));

/**
 * Asks the vision role about image files: the workspace's, or images the user attached in the chat
 * (saved in the session's scratch folder, whose paths the conversation names). Read-only: it sends
 * the images to the vision model and returns its answer.
 */
export const analyzeImageTool: Tool<typeof schema> = {
  name: 'analyze_image',
  category: 'file',
  readOnly: true,
  schema,
  async run(args, ctx) {
    if (!ctx.vision) throw new ToolError('other', 'No vision model is available to this agent.');
    const images = [];
    for (const path of args.paths) {
      const absolute = resolveReadable(ctx.workspaceRoot, path, ctx.readableDirs);
      images.push(await readImageFile(absolute, displayPath(ctx.workspaceRoot, absolute)));
    }
    let answer;
    try {
      answer = await ctx.vision.describe(images, args.question, ctx.signal);
    } catch (err) {
      // Configuration, not the call: the model must not retry, the user must act.
      if (err instanceof VisionUnavailableError) throw new ToolError('other', sectionText('vision/texts.md', 'unavailable_tool', { MESSAGE: err.message }));
      throw err;
    }
    if (!answer.text) throw new ToolError('other', `The vision model (${answer.model}) returned no answer.`);
    const names = imageNames(images);
    return {
      ok: true,
      output: `${answer.model} on ${names}:\n${answer.text}`,
      summary: summaryLine(`✓ ${answer.model} looked at ${names}: ${answer.text}`),
    };
  },
};
