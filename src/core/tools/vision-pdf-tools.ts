import type { WebSession } from '../web/web-session';
import { analyzeImageTool } from './analyze-image';
import { captureScreenshotTool } from './capture-screenshot';
import { readPdfTool } from './read-pdf';
import type { Tool } from './tool';

/**
 * Tools for what is not text: images through the vision role, screenshots of what Chromium can
 * render (the session's browser, shared with the web tools), and PDFs. analyze_image is always
 * offered: without a model that reads images it says how to configure one, which is what the user
 * needs to hear (the registry is built before the roles are known).
 */
export function visionPdfTools(web: WebSession): Tool[] {
  return [analyzeImageTool, captureScreenshotTool(web), readPdfTool] as Tool[];
}
