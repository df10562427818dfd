import type { HostPorts } from '../host';
import { WebSession } from '../web/web-session';
import { captureWebScreenshotTool } from './capture-web-screenshot';
import { fetchUrlTool } from './fetch-url';
import { openBrowserTool } from './open-browser';
import type { Tool } from './tool';
import { webSearchTool } from './web-search';

/**
 * The web tools (appendix A, "web"), sharing `web` (one browser per session, closed with it).
 * open_browser only where the host can open a browser (VS Code, the CLI).
 */
export function webTools(host: HostPorts | undefined, web: WebSession = new WebSession()): Tool[] {
  return [fetchUrlTool(web), webSearchTool(web), captureWebScreenshotTool(web), ...(host?.openExternal ? [openBrowserTool] : [])];
}
