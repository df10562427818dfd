// The file tools as the model calls them (read_file and fileTools() in a real registry) on a fresh
// folder per test, and the bytes on disk to check them by. Call it inside a describe(): it adds the
// beforeEach / afterEach hooks that make and remove the folder.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileTimeTracker } from '../../src/core/tools/file-time-tracker';
import { fileTools } from '../../src/core/tools/file-tools';
import { readFileTool } from '../../src/core/tools/read-file';
import { ToolRegistry } from '../../src/core/tools/registry';
import type { ToolResult } from '../../src/core/tools/tool';
import { toolContext } from './tool-context';

export interface FileToolWorkspace {
  /** This test's folder (the tools' workspace root). */
  readonly root: string;
  /** What the tools remember of the files read this test (the stale-read check). */
  readonly files: FileTimeTracker;
  call(name: string, args: unknown): Promise<ToolResult>;
  bytes(name: string): Buffer;
  text(name: string): string;
  /** Writes a file and reads it through read_file, as the model would before editing it. */
  prepare(name: string, content: string | Buffer): Promise<void>;
}

export function fileToolWorkspace(prefix: string): FileToolWorkspace {
  const registry = new ToolRegistry().register(readFileTool);
  for (const tool of fileTools()) registry.register(tool);
  let root = '';
  let files = new FileTimeTracker();
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), prefix));
    files = new FileTimeTracker();
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const ws: FileToolWorkspace = {
    get root() {
      return root;
    },
    get files() {
      return files;
    },
    call: (name, args) => registry.execute({ id: 'c', name, arguments: JSON.stringify(args) }, toolContext({ workspaceRoot: root, files })),
    bytes: (name) => readFileSync(join(root, name)),
    text: (name) => readFileSync(join(root, name), 'utf8'),
    async prepare(name, content) {
      writeFileSync(join(root, name), content);
      assert.equal((await ws.call('read_file', { file_path: name })).ok, true);
    },
  };
  return ws;
}
