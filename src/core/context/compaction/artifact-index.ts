import { isAbsolute, relative } from 'node:path';
import { toolArgumentsObject, type Message, type ToolCall, type ToolMessage } from '../../messages';
import { loadTemplateSections, renderTemplate } from '../../templates';
import { deletedPaths } from './shell-deletes';

/**
 * The artifact index of a full compaction (paper §2.3, ACC 99% stage): which files the agent read,
 * created, modified and deleted, and which commands it ran, each with a count, built from the tool
 * calls in the history. Failed calls do not count as touching a file (a read of a missing file read
 * nothing); every command counts, failed or not. Kept next to the summary so the agent still knows
 * its footprint after the calls themselves are gone.
 */
export interface ArtifactIndex {
  read: Map<string, number>;
  created: Map<string, number>;
  modified: Map<string, number>;
  deleted: Map<string, number>;
  commands: Map<string, number>;
}

type FileKind = 'read' | 'created' | 'modified';

/** Tools that take a `file_path` and what they do to it (write_file only ever creates). */
const FILE_TOOLS: Readonly<Record<string, FileKind>> = { read_file: 'read', write_file: 'created', edit_file: 'modified' };

/** Each list in the rendered index stops here ("… and N more"): the index must stay small. */
export const MAX_LISTED = 30;
/** A command longer than this is cut in the index (the archive has it whole). */
const MAX_COMMAND_CHARS = 120;

export function emptyArtifactIndex(): ArtifactIndex {
  return { read: new Map(), created: new Map(), modified: new Map(), deleted: new Map(), commands: new Map() };
}

/** Adds the artifacts of `messages`' tool calls to `into` (a new index by default) and returns it. */
export function collectArtifacts(messages: readonly Message[], into: ArtifactIndex = emptyArtifactIndex(), workspaceRoot?: string): ArtifactIndex {
  const results = new Map<string, ToolMessage>();
  for (const m of messages) if (m.role === 'tool') results.set(m.toolCallId, m);
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const call of m.toolCalls) {
      const result = results.get(call.id);
      if (call.name === 'batch_tool') collectBatch(call, result, into, workspaceRoot);
      // A call without a recorded result (interrupted) may still have run: count it as done.
      else collectCall(call.name, toolArgumentsObject(call.arguments), !result?.isError, into, workspaceRoot);
    }
  }
  return into;
}

/** `a` and `b` added up, as a new index. */
export function mergeArtifacts(a: ArtifactIndex, b: ArtifactIndex): ArtifactIndex {
  const out = emptyArtifactIndex();
  for (const source of [a, b]) {
    for (const key of Object.keys(out) as Array<keyof ArtifactIndex>) {
      for (const [name, count] of source[key]) add(out[key], name, count);
    }
  }
  return out;
}

export function isEmptyIndex(index: ArtifactIndex): boolean {
  return Object.values(index).every((m: Map<string, number>) => m.size === 0);
}

/** The index as markdown for the summary message (`templates/compaction/full-compaction.md`). */
export function renderArtifactIndex(index: ArtifactIndex): string {
  const template = loadTemplateSections('compaction/full-compaction.md').get('artifact_index');
  const vars = {
    READ: renderList(index.read),
    CREATED: renderList(index.created),
    MODIFIED: renderList(index.modified),
    DELETED: renderList(index.deleted),
    COMMANDS: renderList(index.commands, true),
  };
  if (template) return renderTemplate(template, vars);
  return Object.entries(vars)
    .map(([k, v]) => `${k.toLowerCase()}: ${v}`)
    .join('\n');
}

function collectCall(name: string, args: Record<string, unknown>, succeeded: boolean, into: ArtifactIndex, workspaceRoot?: string): void {
  const kind = FILE_TOOLS[name];
  if (kind) {
    if (succeeded && typeof args.file_path === 'string' && args.file_path) add(into[kind], displayed(args.file_path, workspaceRoot));
    return;
  }
  if (name === 'run_command' && typeof args.command === 'string' && args.command.trim()) {
    const command = args.command.trim();
    add(into.commands, command);
    if (succeeded) for (const path of deletedPaths(command)) add(into.deleted, displayed(path, workspaceRoot));
  }
}

/** batch_tool carries its calls in `calls`; each one's outcome is marked `[i/n] name ✓|✗` in the batch output. */
function collectBatch(call: ToolCall, result: ToolMessage | undefined, into: ArtifactIndex, workspaceRoot?: string): void {
  const calls = toolArgumentsObject(call.arguments).calls;
  if (!Array.isArray(calls)) return;
  calls.forEach((entry: unknown, i) => {
    if (typeof entry !== 'object' || entry === null) return;
    const { tool, args } = entry as { tool?: unknown; args?: unknown };
    if (typeof tool !== 'string') return;
    const parsed = typeof args === 'string' ? toolArgumentsObject(args) : typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
    const mark = result ? new RegExp(`^\\[${i + 1}/${calls.length}\\] \\S+ (✓|✗)`, 'm').exec(result.content)?.[1] : undefined;
    const succeeded = mark ? mark === '✓' : !result?.isError;
    collectCall(tool, parsed, succeeded, into, workspaceRoot);
  });
}

function add(map: Map<string, number>, key: string, count = 1): void {
  map.set(key, (map.get(key) ?? 0) + count);
}

/** Workspace-relative when the path is inside it; `./` dropped, so one file has one name. */
function displayed(path: string, workspaceRoot?: string): string {
  let shown = path.trim();
  if (workspaceRoot && isAbsolute(shown)) {
    const rel = relative(workspaceRoot, shown);
    if (rel && !rel.startsWith('..') && !isAbsolute(rel)) shown = rel;
  }
  return shown.replace(/^(\.\/)+/, '');
}

function renderList(map: Map<string, number>, code = false): string {
  if (map.size === 0) return 'none';
  const entries = [...map.entries()];
  const shown = entries.slice(0, MAX_LISTED).map(([name, count]) => {
    const label = code ? `\`${clip(name)}\`` : name;
    return count > 1 ? `${label} (×${count})` : label;
  });
  const more = entries.length > MAX_LISTED ? `, … and ${entries.length - MAX_LISTED} more (see the archive)` : '';
  return `${shown.join(', ')}${more}`;
}

function clip(command: string): string {
  const oneLine = command.replace(/\s*\n\s*/g, ' ↵ ').replace(/`/g, "'");
  return oneLine.length <= MAX_COMMAND_CHARS ? oneLine : `${oneLine.slice(0, MAX_COMMAND_CHARS - 1)}…`;
}
