// The file tools and run_command with a host that has its own files and terminal (an ACP editor):
// text comes from and goes to the editor's port, the disk checks stay, and a command outside the
// sandbox runs in the host's terminal with our cleaning, budget and outcome.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostCommandOutcome, HostCommandRequest } from '../../../../src/core/command-runner-port';
import type { EditorFilesPort } from '../../../../src/core/editor-files-port';
import { previewEdit } from '../../../../src/core/tools/edit-file';
import { createBuiltinRegistry } from '../../../../src/core/tools/builtin-tools';
import { FileTimeTracker } from '../../../../src/core/tools/file-time-tracker';
import type { ToolExecutionContext, ToolResult } from '../../../../src/core/tools/tool';
import { toolContext } from '../../../helpers/tool-context';

describe('tools with an editor host (files and terminal through its ports)', () => {
  const registry = createBuiltinRegistry();
  let root: string;
  let buffers: Map<string, string>;
  let writes: Array<[string, string]>;
  const files = (): EditorFilesPort => ({
    readText: async (path) => buffers.get(path) ?? readFileSync(path, 'utf8'),
    writeText: async (path, text) => void writes.push([path, text]),
  });
  const call = (ctx: ToolExecutionContext, name: string, args: unknown): Promise<ToolResult> => registry.execute({ id: 'c1', name, arguments: JSON.stringify(args) }, ctx);

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-editor-host-'));
    writeFileSync(join(root, 'a.ts'), 'const a = 1;\r\nconst b = 2;\r\n');
    buffers = new Map([[join(root, 'a.ts'), 'const a = 1;\r\nconst b = 2; // typed, not saved\r\nconst c = 3;\r\n']]);
    writes = [];
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('read_file shows the buffer (line endings and numbering as from the disk)', async () => {
    const r = await call(toolContext({ workspaceRoot: root, host: { files: files() } }), 'read_file', { file_path: 'a.ts', offset: 2 });
    assert.equal(r.output.split('\n').slice(0, 2).join('\n'), '     2\tconst b = 2; // typed, not saved\n     3\tconst c = 3;');
    assert.match(r.summary, /Read a\.ts \(2 lines/);
  });

  it('read_file still refuses a missing file and a binary buffer', async () => {
    const ctx = toolContext({ workspaceRoot: root, host: { files: files() } });
    assert.equal((await call(ctx, 'read_file', { file_path: 'nope.ts' })).errorKind, 'not_found');
    buffers.set(join(root, 'a.ts'), 'PK\0\0binary');
    assert.match((await call(ctx, 'read_file', { file_path: 'a.ts' })).output, /binary file/);
  });

  it('edit_file edits the buffer and writes it through the editor (CRLF kept); the disk is the editor\'s to save', async () => {
    const ctx = toolContext({ workspaceRoot: root, host: { files: files() }, files: new FileTimeTracker() });
    await call(ctx, 'read_file', { file_path: 'a.ts' });
    const preview = await previewEdit(root, { file_path: 'a.ts', old_content: 'const c = 3;', new_content: 'const c = 4;' }, files());
    assert.match(preview?.change.before ?? '', /typed, not saved/, 'the approval diff is against the buffer');
    const r = await call(ctx, 'edit_file', { file_path: 'a.ts', old_content: 'const c = 3;', new_content: 'const c = 4;' });
    assert.equal(r.ok, true, r.output);
    assert.deepEqual(writes, [[join(root, 'a.ts'), 'const a = 1;\r\nconst b = 2; // typed, not saved\r\nconst c = 4;\r\n']]);
    assert.equal(readFileSync(join(root, 'a.ts'), 'utf8'), 'const a = 1;\r\nconst b = 2;\r\n');
  });

  it('an editor that only reads: edit_file applies to its buffer and writes the disk', async () => {
    const readOnly: EditorFilesPort = { readText: files().readText! };
    const ctx = toolContext({ workspaceRoot: root, host: { files: readOnly }, files: new FileTimeTracker() });
    await call(ctx, 'read_file', { file_path: 'a.ts' });
    assert.equal((await call(ctx, 'edit_file', { file_path: 'a.ts', old_content: 'const c = 3;', new_content: 'const c = 4;' })).ok, true);
    assert.equal(readFileSync(join(root, 'a.ts'), 'utf8'), 'const a = 1;\r\nconst b = 2; // typed, not saved\r\nconst c = 4;\r\n');
  });

  it('write_file creates through the editor, and still refuses a file that exists', async () => {
    const ctx = toolContext({ workspaceRoot: root, host: { files: files() }, files: new FileTimeTracker() });
    const r = await call(ctx, 'write_file', { file_path: 'b.ts', content: 'export {};\n' });
    assert.equal(r.ok, true, r.output);
    assert.deepEqual(writes, [[join(root, 'b.ts'), 'export {};\n']]);
    assert.match((await call(ctx, 'write_file', { file_path: 'a.ts', content: 'x' })).output, /already exists/);
    assert.equal(writes.length, 1);
  });

  it('run_command runs in the host\'s terminal: its output cleaned of escapes, its exit code reported', async () => {
    const asked: HostCommandRequest[] = [];
    const commandRunner = {
      run: async (request: HostCommandRequest): Promise<HostCommandOutcome> => {
        asked.push(request);
        return { status: 'exited', exitCode: 2, signal: null, output: '\x1b[31mred\x1b[0m line\r\nsecond\n', truncated: false };
      },
    };
    const r = await call(toolContext({ workspaceRoot: root, host: { commandRunner } }), 'run_command', { command: 'make check', timeout: 30 });
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.command, 'make check');
    assert.equal(asked[0]!.cwd, root);
    assert.equal(asked[0]!.timeoutMs, 30_000);
    assert.equal(r.ok, false);
    assert.match(r.output, /^red line\nsecond\n\n\[exit code 2 · .*2 lines\]/);
  });

  it('run_command: a timeout in the host\'s terminal is reported as one', async () => {
    const commandRunner = { run: async (): Promise<HostCommandOutcome> => ({ status: 'timeout', exitCode: null, signal: 'SIGTERM', output: 'waiting…', truncated: true }) };
    const r = await call(toolContext({ workspaceRoot: root, host: { commandRunner } }), 'run_command', { command: 'tail -n 5 log.txt' });
    assert.equal(r.errorKind, 'timeout', r.output);
    assert.match(r.output, /kept only the end of the output\]\nwaiting…/);
  });

  it('run_command: the danger gate refuses before the host\'s terminal is asked', async () => {
    let ran = false;
    const commandRunner = { run: async (): Promise<HostCommandOutcome> => ((ran = true), { status: 'exited', exitCode: 0, signal: null, output: '', truncated: false }) };
    const r = await call(toolContext({ workspaceRoot: root, host: { commandRunner } }), 'run_command', { command: 'rm -rf /' });
    assert.equal(r.errorKind, 'permission');
    assert.equal(ran, false);
  });
});
