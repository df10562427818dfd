import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mkdirPrivate, PRIVATE_FILE_MODE } from '../config/private-files';
import type { ToolCall } from '../messages';
import { loadTemplateSections, renderTemplate } from '../templates';
import type { ToolResult } from '../tools/tool';

/** Outputs longer than this leave the context (the paper's threshold). */
export const OFFLOAD_THRESHOLD_CHARS = 8_000;
/** How much of an offloaded output the model still sees. */
export const OFFLOAD_PREVIEW_CHARS = 500;
/** When the file cannot be written the output stays in context, its head and tail kept up to this size. */
const FALLBACK_MAX_CHARS = 30_000;

const TEMPLATE = 'context/tool-output.md';

/**
 * read_file is never offloaded: the model asked for exactly that range, its own limits (2,000 lines,
 * 30,000 characters) apply, and offloading would only make it read the same text again in pieces,
 * each of which could be offloaded in turn. Its output ages out through masking like any other.
 */
const NEVER_OFFLOADED = new Set(['read_file']);

export type ShapeResult = (call: ToolCall, result: ToolResult) => Promise<ToolResult>;

export interface ToolOutputOffloadOptions {
  /** `OPENDEV_HOME/scratch/<session>/`: where the outputs are saved; created on first use. */
  scratchDir: string;
  /** The agent can call spawn_subagent: the hint says to hand the analysis to a Code-Explorer. */
  canDelegate: boolean;
}

/**
 * The tool-result economy's shapeResult: an output over 8,000 characters is saved whole to the
 * scratch folder and the model reads a 500-character preview, the path, the size and how to get
 * at the rest. The summary is kept as it is. Never throws: if the file cannot be written the
 * output stays in context (head and tail when very large).
 */
export function createToolOutputOffloader(options: ToolOutputOffloadOptions): ShapeResult {
  let saved = 0;
  return async (call, result) => {
    if (result.output.length <= OFFLOAD_THRESHOLD_CHARS || NEVER_OFFLOADED.has(call.name)) return result;
    const sections = loadTemplateSections(TEMPLATE);
    const message = sections.get('offloaded');
    if (!message) return result; // an installation without the template has no words for it
    let path: string;
    try {
      path = await saveOutput(options.scratchDir, call, result.output, ++saved);
    } catch {
      return keptInContext(result, sections.get('truncated'));
    }
    const vars = {
      TOOL: call.name,
      PATH: path,
      CHARS: result.output.length.toLocaleString('en-US'),
      LINES: countLines(result.output).toLocaleString('en-US'),
      PREVIEW_CHARS: String(OFFLOAD_PREVIEW_CHARS),
    };
    const hint = renderTemplate(sections.get(options.canDelegate ? 'hint_delegate' : 'hint_read') ?? '', vars);
    const preview = result.output.slice(0, OFFLOAD_PREVIEW_CHARS);
    return { ...result, output: renderTemplate(message, { ...vars, PREVIEW: preview, HINT: hint }).trim() };
  };
}

/** `<tool>-<end of the call id>.txt`, never overwriting (ids may repeat across resumed sessions). */
async function saveOutput(dir: string, call: ToolCall, output: string, sequence: number): Promise<string> {
  await mkdirPrivate(dir);
  const tool = safeName(call.name).slice(0, 60) || 'tool';
  const id = safeName(call.id).slice(-8) || String(sequence);
  for (let attempt = 1; ; attempt++) {
    const path = join(dir, `${tool}-${id}${attempt > 1 ? `-${attempt}` : ''}.txt`);
    try {
      await writeFile(path, output, { encoding: 'utf8', flag: 'wx', mode: PRIVATE_FILE_MODE });
      return path;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 100) throw err;
    }
  }
}

function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
}

function keptInContext(result: ToolResult, marker: string | undefined): ToolResult {
  const { output } = result;
  if (output.length <= FALLBACK_MAX_CHARS) return result;
  const half = FALLBACK_MAX_CHARS / 2;
  const omitted = renderTemplate(marker ?? '…', { OMITTED: (output.length - 2 * half).toLocaleString('en-US') });
  return { ...result, output: `${output.slice(0, half)}\n${omitted}\n${output.slice(-half)}` };
}

function countLines(text: string): number {
  if (text === '') return 0;
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') ? breaks : breaks + 1;
}
