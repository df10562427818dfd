import { dirname } from 'node:path';
import { createToolOutputOffloader, type ShapeResult } from '../context/tool-output-offload';
import type { SessionServices } from './session-services';

/**
 * The tool-result economy for one agent: outputs over 8,000 characters go to the session's scratch
 * folder, with a hint that fits the agent's own tools. Every scratch folder stays readable (sessions
 * saved before their ids matched the agent's had another, and run_command names its task logs there too).
 */
export function outputEconomy(services: SessionServices, canDelegate: boolean): { shapeResult: ShapeResult; readableDirs: string[] } {
  const scratchRoot = dirname(services.scratchDir);
  return {
    shapeResult: createToolOutputOffloader({ scratchDir: services.scratchDir, canDelegate }),
    readableDirs: [scratchRoot, ...(services.skillDirs ?? [])],
  };
}
