// The client's file system as the tools' EditorFilesPort: read_file and edit_file read what the
// editor holds (an unsaved buffer is what the user sees, so it is what the agent reads), and
// edit_file and write_file write into the editor, which shows the change and saves it. Each half
// only when the client advertised it; the other half stays on the disk. The paths were already
// checked by the tool (inside the workspace, or a readable folder): the client is only asked for text.
import type { AgentContext, FileSystemCapabilities } from '@agentclientprotocol/sdk';
import * as z from 'zod';
import type { EditorFilesPort } from '../core/editor-files-port';

const ReadAnswer = z.object({ content: z.string() });

export function clientFiles(client: AgentContext, sessionId: () => string, fs: FileSystemCapabilities | undefined): EditorFilesPort | undefined {
  if (!fs?.readTextFile && !fs?.writeTextFile) return undefined;
  return {
    ...(fs.readTextFile
      ? {
          readText: async (path: string) => ReadAnswer.parse(await client.request('fs/read_text_file', { sessionId: sessionId(), path })).content,
        }
      : {}),
    ...(fs.writeTextFile
      ? {
          writeText: async (path: string, content: string) => {
            await client.request('fs/write_text_file', { sessionId: sessionId(), path, content });
          },
        }
      : {}),
  };
}
