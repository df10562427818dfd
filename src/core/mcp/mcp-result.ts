// An MCP tool result (already validated by the SDK's zod schema) as our ToolResult. Tool results
// carry text only, so text is joined as is, images and audio are saved to the session's scratch
// folder with a note giving the path, embedded text resources are inlined, binary ones and
// resource links become one-line notes. `isError` is a failed call the model reads.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mkdirPrivate, PRIVATE_FILE_MODE } from '../config/private-files';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { summaryLine, toolFailure, type ToolResult } from '../tools/tool';
import { byteSize, mcpText } from './mcp-texts';

type Content = CallToolResult['content'][number];

export interface McpResultContext {
  /** The qualified name (`mcp__server__tool`), for summaries and saved file names. */
  toolName: string;
  /** Where images and audio are saved (the session's scratch folder); absent: they are only described. */
  mediaDir?: string;
}

export async function mapMcpResult(result: CallToolResult, ctx: McpResultContext): Promise<ToolResult> {
  const parts: string[] = [];
  const counts = { image: 0, audio: 0, resource: 0 };
  let index = 0;
  for (const item of result.content ?? []) {
    parts.push(await contentText(item, ctx, index++, counts));
  }
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent, null, 2));
  const text = parts.filter((p) => p !== '').join('\n');
  if (result.isError) return toolFailure('other', text || mcpText('empty'));
  const output = text || mcpText('empty');
  const extras = [counts.image && `${counts.image} image`, counts.audio && `${counts.audio} audio`, counts.resource && `${counts.resource} resource`].filter(Boolean);
  const first = output.split('\n').find((l) => l.trim() !== '' && !l.startsWith('[')) ?? '';
  const detail = [first.length > 100 ? `${first.slice(0, 99)}…` : first, extras.length ? `(+${extras.join(', ')})` : ''].filter(Boolean).join(' ');
  return { ok: true, output, summary: summaryLine(`✓ ${ctx.toolName}${detail ? `: ${detail}` : ''}`) };
}

async function contentText(item: Content, ctx: McpResultContext, index: number, counts: { image: number; audio: number; resource: number }): Promise<string> {
  switch (item.type) {
    case 'text':
      return item.text;
    case 'image':
    case 'audio': {
      counts[item.type]++;
      const size = byteSize(Buffer.byteLength(item.data, 'base64'));
      const saved = await saveMedia(item.data, item.mimeType, ctx, index);
      if ('path' in saved) return mcpText(item.type, { MIME: item.mimeType, SIZE: size, PATH: saved.path });
      return mcpText('image_unsaved', { MIME: item.mimeType, SIZE: size, REASON: saved.reason });
    }
    case 'resource': {
      counts.resource++;
      const r = item.resource;
      if ('text' in r && typeof r.text === 'string') return r.text;
      const blob = 'blob' in r && typeof r.blob === 'string' ? r.blob : '';
      return mcpText('blob', { URI: r.uri, MIME: r.mimeType ?? 'unknown type', SIZE: byteSize(Buffer.byteLength(blob, 'base64')) });
    }
    case 'resource_link':
      counts.resource++;
      return mcpText('resource_link', { NAME: item.name, URI: item.uri, MIME: item.mimeType ? ` (${item.mimeType})` : '' });
    default:
      return '';
  }
}

async function saveMedia(data: string, mimeType: string, ctx: McpResultContext, index: number): Promise<{ path: string } | { reason: string }> {
  if (!ctx.mediaDir) return { reason: 'this session has no scratch folder' };
  const path = join(ctx.mediaDir, `${ctx.toolName}-${Date.now()}-${index}.${extensionOf(mimeType)}`);
  try {
    await mkdirPrivate(ctx.mediaDir);
    await writeFile(path, Buffer.from(data, 'base64'), { mode: PRIVATE_FILE_MODE });
    return { path };
  } catch (err) {
    return { reason: (err as Error).message };
  }
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
};

function extensionOf(mimeType: string): string {
  return EXTENSIONS[mimeType.toLowerCase()] ?? 'bin';
}
